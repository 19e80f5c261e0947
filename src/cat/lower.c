#include "cat/lower.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hashmap.h"
#include "base/vec.h"
#include "base/xalloc.h"
#include "logic/check.h"
#include "logic/combinators.h"
#include "logic/vocab.h"

enum { EXACT = 0, OVER = 1 };

typedef enum vkind { V_REL, V_EMPTY, V_UNIV, V_FUN, V_PRIM, V_TUPLE, V_TAG, V_PROC, V_VSET,
                     V_ORDERS /* linearisations(S, r): items[0] S, items[1] r */,
                     V_CLASSES /* classes(r): r the equivalence "in one class" */ } vkind;

typedef struct env env;
typedef struct thunk thunk;
typedef struct value value;
typedef struct recgroup recgroup;

struct value {
    vkind k;
    bool approx;            /* built with an OVER approximation */
    const logic_rexpr *r;   /* REL */
    const cat_expr *fun;    /* FUN: a CAT_E_FUN */
    const cat_ins *proc;    /* PROC */
    env *cenv;              /* FUN, PROC: where it was defined */
    const char *name;       /* PRIM, TAG */
    value **items;          /* TUPLE, VSET (a set of values: {a, b}, x ++ s) */
    uint32_t n;
    bool parts;             /* VSET: sets disjoint in every execution (classes-loc's) */
    /* REL taken apart by `match ... with e ++ s` (match_split): */
    bool elem;              /* one event or one pair, a constant */
    const logic_rexpr *base; /* the set or relation it came from (what its tuples are in) */
    uint64_t *cand;         /* the tuples of base it may still hold (may-bits), or NULL */
};

struct thunk {
    const cat_expr *e;
    env *env;
    value *memo[2];
    bool busy[2];
    recgroup *group; /* a let rec member: computed with its group */
    uint32_t index;
    const char *name;
};

struct env {
    const char *name;
    value *v;
    thunk *t;
    env *next;
};

struct recgroup {
    const cat_bind *binds;
    uint32_t n;
    env *outer;     /* the environment before the group */
    value **vals[2];
    bool busy[2];
};

/* One membership decision: is tuple (t0, t1) in base? */
struct decision {
    const logic_rexpr *base;
    uint32_t t0, t1;
    bool val;
};

/* A constant relation (an element of a set taken apart) and its tuples. */
struct constbits {
    const logic_rexpr *r;
    uint64_t *bits;
};

typedef struct lower {
    logic_builder *b;
    const logic_exec *e;
    base_diag *diag;
    const logic_rexpr *x;
    uint32_t quiet; /* inside try: errors are not reported */
    uint32_t depth;
    uint32_t nnames;
    BASE_VEC(const logic_sovar *) vars;
    BASE_VEC(const logic_formula *) parts;
    BASE_VEC(const logic_sovar *) owner; /* per part: the variable it defines, or NULL (a check) */
    BASE_VEC(logic_mm_flag) flags;
    BASE_VEC(uint64_t *) cmust_memo; /* SO variable id -> cmust_eval of its bound, or NULL */
    /* taking sets of the execution apart (match_split), case by case: */
    BASE_VEC(struct decision) dec;  /* this pass's decisions, in order of first use */
    BASE_VEC(bool) forced;          /* the values of the first decisions in this pass */
    bool casing;                    /* splitting allowed (inside with_from_static) */
    uint64_t consults;              /* decisions looked at so far (memo guard) */
    BASE_VEC(struct constbits) consts; /* constant relations (elements) and their tuples */
} lower;

static value *err(lower *L, base_srcloc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static value *err(lower *L, base_srcloc loc, const char *fmt, ...)
{
    if (L->quiet == 0) {
        va_list ap;
        va_start(ap, fmt);
        base_diag_vreport(L->diag, BASE_SEV_ERROR, loc, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

static void *anew(lower *L, size_t size)
{
    return base_arena_zalloc(&L->b->arena, size);
}

static value *mkval(lower *L, vkind k)
{
    value *v = anew(L, sizeof *v);
    v->k = k;
    return v;
}

static value *mkrel(lower *L, const logic_rexpr *r, bool approx)
{
    value *v = mkval(L, V_REL);
    v->r = r;
    v->approx = approx;
    return v;
}

static env *bind(lower *L, env *next, const char *name, value *v, thunk *t)
{
    env *e = anew(L, sizeof *e);
    e->name = name;
    e->v = v;
    e->t = t;
    e->next = next;
    return e;
}

static env *bind_value(lower *L, env *next, const char *name, value *v)
{
    return bind(L, next, name, v, NULL);
}

static thunk *mkthunk(lower *L, const cat_expr *ex, env *en, const char *name)
{
    thunk *t = anew(L, sizeof *t);
    t->e = ex;
    t->env = en;
    t->name = name;
    return t;
}

static env *bind_thunk(lower *L, env *next, const char *name, thunk *t)
{
    return bind(L, next, name, NULL, t);
}

static const char *sov_name(lower *L, const char *what)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s#%u", what, ++L->nnames);
    return base_arena_strdup(&L->b->arena, buf);
}

static logic_sovar *new_var(lower *L, const char *what, uint32_t arity)
{
    logic_sovar *v = logic_new_sovar(L->b, sov_name(L, what), arity);
    base_vec_push(&L->vars, v);
    return v;
}

/* A constraint that only defines w (pushed as a part; dropped with w when
 * nothing that is kept uses w: see prune). */
static void push_def(lower *L, const logic_formula *f, const logic_sovar *w)
{
    while (L->owner.len < L->parts.len)
        base_vec_push(&L->owner, NULL);
    base_vec_push(&L->parts, f);
    base_vec_push(&L->owner, w);
}

/* w stands for r: equal to it (EXACT: a definition the grounder inlines,
 * logic_sovar.def) or containing it (OVER: a constraint r <= w). */
static void define(lower *L, logic_sovar *w, const logic_rexpr *r, int mode)
{
    if (mode == EXACT)
        w->def = r;
    else
        push_def(L, logic_sub_split(L->b, r, logic_r_sov(L->b, w)), w);
}

static const char *kind_name(const value *v)
{
    switch (v->k) {
    case V_REL: return v->r->arity == 1 ? "a set" : "a relation";
    case V_EMPTY: return "the empty set";
    case V_UNIV: return "the universe";
    case V_FUN: return "a function";
    case V_PRIM: return "a primitive function";
    case V_TUPLE: return "a tuple";
    case V_TAG: return "a tag";
    case V_PROC: return "a procedure";
    case V_VSET: return "a set of values";
    case V_ORDERS: return "a set of linearisations";
    case V_CLASSES: return "a set of classes";
    }
    return "a value";
}

static bool is_relational(const value *v)
{
    return v->k == V_REL || v->k == V_EMPTY || v->k == V_UNIV;
}

/* v as a relational expression of the given arity. */
static value *elems_rel(lower *L, value *v);

static const logic_rexpr *as_rel(lower *L, const value *v, uint32_t arity, base_srcloc loc,
                                 const char *what)
{
    if (v->k == V_VSET && elems_rel(L, (value *)v) != v)
        v = elems_rel(L, (value *)v);
    switch (v->k) {
    case V_EMPTY:
        return logic_r_empty(L->b, arity);
    case V_UNIV:
        return arity == 1 ? L->x : logic_prod(L->b, L->x, L->x);
    case V_REL:
        if (v->r->arity == arity)
            return v->r;
        err(L, loc, "%s needs %s, not %s", what, arity == 1 ? "a set" : "a relation",
            kind_name(v));
        return NULL;
    default:
        err(L, loc, "%s needs %s, not %s", what, arity == 1 ? "a set" : "a relation",
            kind_name(v));
        return NULL;
    }
}

/* --- closures --- */

/* r+ exactly: ceil(log2 n) squarings, each an SO variable defined by <->. */
static const logic_rexpr *plus_exact(lower *L, const logic_rexpr *r)
{
    uint32_t n = L->b->st->n, levels = 0;
    while (levels < 31 && (1u << levels) < n)
        levels++;
    const logic_rexpr *cur = r;
    for (uint32_t k = 0; k < levels; k++) {
        logic_sovar *v = new_var(L, "plus", 2);
        v->bound = r;
        v->bound_closure = true;
        v->exclude = L->e->conflict;
        define(L, v, logic_union(L->b, cur, logic_seq(L->b, cur, cur)), EXACT);
        cur = logic_r_sov(L->b, v);
    }
    return cur;
}

static value *plus(lower *L, const logic_rexpr *r, int mode, bool approx)
{
    if (r->kind == LOGIC_R_EMPTY)
        return mkrel(L, r, approx);
    if (mode == EXACT)
        return mkrel(L, plus_exact(L, r), approx);
    const logic_formula *c;
    const logic_sovar *v;
    const logic_rexpr *t = logic_plus(L->b, sov_name(L, "plus"), r, L->e->conflict, &c, &v);
    base_vec_push(&L->vars, v);
    push_def(L, c, v);
    return mkrel(L, t, true);
}

static const logic_rexpr *domain_of(lower *L, const logic_rexpr *r, bool range)
{
    int32_t x = logic_fresh_var(L->b), y = logic_fresh_var(L->b);
    const logic_formula *body = range ? logic_apply(L->b, r, y, x) : logic_apply(L->b, r, x, y);
    return logic_r_formula(L->b, 1, x, 0, logic_exists(L->b, y, body));
}

/* --- static (may) bounds, from the structure alone --- */

/* Bit rows: arity 2, n rows of w words; arity 1, one row. */
typedef struct maybits {
    uint64_t *bits;
    uint32_t arity;
} maybits;

/* An SO variable whose may-bits are known (a let rec member's last round). */
typedef struct maysov {
    const logic_sovar *v;
    const uint64_t *bits;
} maysov;

static size_t may_words(const lower *L)
{
    return L->b->st->n / 64 + 1;
}

static uint64_t *may_new(lower *L, uint32_t arity, bool full)
{
    uint32_t n = L->b->st->n;
    size_t w = may_words(L), total = w * (arity == 2 ? n : 1);
    uint64_t *b = anew(L, total * sizeof *b);
    if (full) {
        for (uint32_t r = 0; r < (arity == 2 ? n : 1); r++)
            for (uint32_t c = 0; c < n; c++)
                b[r * w + c / 64] |= (uint64_t)1 << (c % 64);
    }
    return b;
}

static inline bool may_get(const uint64_t *b, size_t w, uint32_t r, uint32_t c)
{
    return b[r * w + c / 64] >> (c % 64) & 1;
}

static uint64_t *cmust_eval(lower *L, const logic_rexpr *r, uint32_t depth);
static uint64_t may_count(const lower *L, const uint64_t *b, uint32_t arity);

/* Over-approximates the tuples r may hold in any execution (a difference
 * by what its right side holds whenever its events run, a formula by
 * everything). */
static uint64_t *may_eval(lower *L, const logic_rexpr *r, const maysov *ks, uint32_t nks,
                          uint32_t depth)
{
    uint32_t n = L->b->st->n, ar = r->arity;
    size_t w = may_words(L), total = w * (ar == 2 ? n : 1);
    if (depth > 400)
        return may_new(L, ar, true);
    switch (r->kind) {
    case LOGIC_R_EMPTY:
        return may_new(L, ar, false);
    case LOGIC_R_REL: {
        uint64_t *b = may_new(L, ar, false);
        const logic_relation *rel = &L->b->st->rels[r->rel];
        for (uint32_t i = 0; i < (ar == 2 ? n : 1); i++)
            for (uint32_t c = 0; c < n; c++)
                if (logic_bit_get(rel->bits, ar == 2 ? (size_t)i * n + c : c))
                    b[i * w + c / 64] |= (uint64_t)1 << (c % 64);
        return b;
    }
    case LOGIC_R_SOV: {
        for (uint32_t i = 0; i < nks; i++)
            if (ks[i].v == r->sov)
                return (uint64_t *)ks[i].bits;
        if (r->sov->bound_bits)
            return (uint64_t *)r->sov->bound_bits;
        if (!r->sov->bound || r->sov->bound_elim)
            return may_new(L, ar, true);
        uint64_t *b = may_eval(L, r->sov->bound, ks, nks, depth + 1);
        if (r->sov->bound_closure && ar == 2) { /* Warshall */
            uint64_t *o = may_new(L, 2, false);
            memcpy(o, b, total * sizeof *o);
            for (uint32_t k = 0; k < n; k++)
                for (uint32_t i = 0; i < n; i++)
                    if (may_get(o, w, i, k))
                        for (size_t j = 0; j < w; j++)
                            o[i * w + j] |= o[k * w + j];
            b = o;
        }
        return b;
    }
    case LOGIC_R_UNION:
    case LOGIC_R_INTER: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1), *b = may_eval(L, r->b, ks, nks, depth + 1);
        uint64_t *o = may_new(L, ar, false);
        for (size_t i = 0; i < total; i++)
            o[i] = r->kind == LOGIC_R_UNION ? a[i] | b[i] : a[i] & b[i];
        return o;
    }
    case LOGIC_R_DIFF: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1);
        if (may_count(L, a, ar) == 0)
            return a;
        uint64_t *b = cmust_eval(L, r->b, depth + 1), *o = may_new(L, ar, false);
        for (size_t i = 0; i < total; i++)
            o[i] = a[i] & ~b[i];
        return o;
    }
    case LOGIC_R_SEQ: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1), *b = may_eval(L, r->b, ks, nks, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < n; k++)
                if (may_get(a, w, i, k))
                    for (size_t j = 0; j < w; j++)
                        o[i * w + j] |= b[k * w + j];
        return o;
    }
    case LOGIC_R_INV: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < n; k++)
                if (may_get(a, w, i, k))
                    o[k * w + i / 64] |= (uint64_t)1 << (i % 64);
        return o;
    }
    case LOGIC_R_ID: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            if (may_get(a, w, 0, i))
                o[i * w + i / 64] |= (uint64_t)1 << (i % 64);
        return o;
    }
    case LOGIC_R_PROD: {
        uint64_t *a = may_eval(L, r->a, ks, nks, depth + 1), *b = may_eval(L, r->b, ks, nks, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            if (may_get(a, w, 0, i))
                memcpy(o + i * w, b, w * sizeof *o);
        return o;
    }
    case LOGIC_R_FORMULA:
        for (size_t i = 0; i < L->consts.len; i++)
            if (L->consts.data[i].r == r)
                return L->consts.data[i].bits;
        break;
    case LOGIC_R_ALL:
        break;
    }
    return may_new(L, ar, true);
}

/* Under-approximates the tuples r holds in every execution that runs both
 * of their events ("conditional must"): the relations of the model hold
 * only between events of X, so a tuple of a \ b here is one of a whose
 * events run, and then it is in b. A sequence through an event that may
 * not run holds nothing here (unless one side is [S]). */
static uint64_t *cmust_eval(lower *L, const logic_rexpr *r, uint32_t depth)
{
    uint32_t n = L->b->st->n, ar = r->arity;
    size_t w = may_words(L), total = w * (ar == 2 ? n : 1);
    if (depth > 400)
        return may_new(L, ar, false);
    switch (r->kind) {
    case LOGIC_R_REL:
        return may_eval(L, r, NULL, 0, depth);
    case LOGIC_R_ALL:
        return may_new(L, ar, true);
    case LOGIC_R_SOV:
        if (r->sov == L->e->X)
            return may_new(L, ar, true);
        if (r->sov->bound && !r->sov->bound_closure && !r->sov->bound_elim &&
            r->sov->bound_bits) { /* a named relation, containing its bound */
            uint32_t id = r->sov->id;
            while (L->cmust_memo.len <= id)
                base_vec_push(&L->cmust_memo, NULL);
            if (!L->cmust_memo.data[id])
                L->cmust_memo.data[id] = cmust_eval(L, r->sov->bound, depth + 1);
            return L->cmust_memo.data[id];
        }
        return may_new(L, ar, false);
    case LOGIC_R_UNION:
    case LOGIC_R_INTER: {
        uint64_t *a = cmust_eval(L, r->a, depth + 1), *b = cmust_eval(L, r->b, depth + 1);
        uint64_t *o = may_new(L, ar, false);
        for (size_t i = 0; i < total; i++)
            o[i] = r->kind == LOGIC_R_UNION ? a[i] | b[i] : a[i] & b[i];
        return o;
    }
    case LOGIC_R_DIFF: {
        uint64_t *a = cmust_eval(L, r->a, depth + 1), *b = may_eval(L, r->b, NULL, 0, depth + 1);
        uint64_t *o = may_new(L, ar, false);
        for (size_t i = 0; i < total; i++)
            o[i] = a[i] & ~b[i];
        return o;
    }
    case LOGIC_R_INV: {
        uint64_t *a = cmust_eval(L, r->a, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < n; k++)
                if (may_get(a, w, i, k))
                    o[k * w + i / 64] |= (uint64_t)1 << (i % 64);
        return o;
    }
    case LOGIC_R_ID: {
        uint64_t *a = cmust_eval(L, r->a, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            if (may_get(a, w, 0, i))
                o[i * w + i / 64] |= (uint64_t)1 << (i % 64);
        return o;
    }
    case LOGIC_R_PROD: {
        uint64_t *a = cmust_eval(L, r->a, depth + 1), *b = cmust_eval(L, r->b, depth + 1);
        uint64_t *o = may_new(L, 2, false);
        for (uint32_t i = 0; i < n; i++)
            if (may_get(a, w, 0, i))
                memcpy(o + i * w, b, w * sizeof *o);
        return o;
    }
    case LOGIC_R_SEQ:
        if (r->a->kind == LOGIC_R_ID || r->b->kind == LOGIC_R_ID) {
            /* the middle event is an end */
            uint64_t *a = cmust_eval(L, r->a, depth + 1), *b = cmust_eval(L, r->b, depth + 1);
            uint64_t *o = may_new(L, 2, false);
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t k = 0; k < n; k++)
                    if (may_get(a, w, i, k))
                        for (size_t j = 0; j < w; j++)
                            o[i * w + j] |= b[k * w + j];
            return o;
        }
        break;
    case LOGIC_R_FORMULA: /* a constant holds its tuples always */
        for (size_t i = 0; i < L->consts.len; i++)
            if (L->consts.data[i].r == r)
                return L->consts.data[i].bits;
        break;
    case LOGIC_R_EMPTY:
        break;
    }
    return may_new(L, ar, false);
}

static uint64_t may_count(const lower *L, const uint64_t *b, uint32_t arity)
{
    size_t total = may_words(L) * (arity == 2 ? L->b->st->n : 1);
    uint64_t c = 0;
    for (size_t i = 0; i < total; i++)
        c += (uint64_t)__builtin_popcountll(b[i]);
    return c;
}


/* --- evaluation --- */

static value *eval(lower *L, const cat_expr *ex, env *en, int mode);
static bool static_empty(const value *v);
static value *eval_vset(lower *L, const cat_expr *ex, env *en);
static value *eval_add(lower *L, const cat_expr *ex, env *en);
static value *eval_match(lower *L, const cat_expr *ex, env *en, int mode);
static value *force_rec(lower *L, recgroup *g, uint32_t i, int mode, base_srcloc loc);
static value *eval_if(lower *L, const cat_expr *ex, env *en, int mode);
static value *select_by(lower *L, base_srcloc loc, const char *what, const logic_formula *cond,
                        value *x, value *y);

static value *force(lower *L, thunk *t, int mode, base_srcloc loc)
{
    if (t->group)
        return force_rec(L, t->group, t->index, mode, loc);
    if (t->memo[mode])
        return t->memo[mode];
    if (mode == OVER && t->memo[EXACT])
        return t->memo[EXACT];
    if (mode == EXACT && t->memo[OVER] && !t->memo[OVER]->approx)
        return t->memo[OVER];
    if (t->busy[mode])
        return err(L, loc, "'%s' is defined in terms of itself (use let rec)",
                   t->name ? t->name : "argument");
    t->busy[mode] = true;
    uint64_t consults = L->consults;
    value *v = eval(L, t->e, t->env, mode);
    t->busy[mode] = false;
    bool keep = consults == L->consults; /* a value of one case only is not kept */
    if (v && t->name && v->k == V_REL && v->r->kind != LOGIC_R_REL &&
        v->r->kind != LOGIC_R_SOV && v->r->kind != LOGIC_R_EMPTY && !v->elem && !v->cand) {
        /* a named relation as an SO variable, so that each use is a
         * lookup and not the whole expression again (nested sequences
         * would otherwise ground in n^depth): equal to it exactly, or
         * containing it where an over-approximation is allowed */
        logic_sovar *w = new_var(L, t->name, v->r->arity);
        w->bound = v->r;
        /* what it may hold, once, so that the relations defined in terms
         * of it need not look through it again */
        w->bound_bits = may_eval(L, v->r, NULL, 0, 0);
        if (may_count(L, w->bound_bits, v->r->arity) == 0) {
            /* empty in every execution: say so, so that what is built on
             * it (a difference, a sequence) needs nothing more */
            v = mkrel(L, logic_r_empty(L->b, v->r->arity), v->approx);
            if (keep)
                t->memo[mode] = v;
            return v;
        }
        define(L, w, v->r, mode);
        v = mkrel(L, logic_r_sov(L->b, w), v->approx || mode == OVER);
    }
    if (v && keep)
        t->memo[mode] = v;
    return v;
}

static value *lookup(lower *L, env *en, const char *name, int mode, base_srcloc loc)
{
    for (env *p = en; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p->t ? force(L, p->t, mode, loc) : p->v;
    return err(L, loc, "unbound name '%s'", name);
}

/* Binds a function's (or procedure's) parameters to the argument
 * expression, by name. */
static bool bind_params(lower *L, const cat_params *ps, const cat_expr *arg, env *argenv,
                        env **out, base_srcloc loc)
{
    if (!ps->tuple) {
        if (ps->names[0])
            *out = bind_thunk(L, *out, ps->names[0], mkthunk(L, arg, argenv, ps->names[0]));
        return true;
    }
    if (arg->kind == CAT_E_TUPLE && arg->nitems == ps->n) {
        for (uint32_t i = 0; i < ps->n; i++)
            if (ps->names[i])
                *out = bind_thunk(L, *out, ps->names[i],
                                  mkthunk(L, arg->items[i], argenv, ps->names[i]));
        return true;
    }
    value *v = eval(L, arg, argenv, EXACT);
    if (!v)
        return false;
    if (v->k != V_TUPLE || v->n != ps->n) {
        err(L, loc, "this function takes %u arguments", ps->n);
        return false;
    }
    for (uint32_t i = 0; i < ps->n; i++)
        if (ps->names[i])
            *out = bind_value(L, *out, ps->names[i], v->items[i]);
    return true;
}

static value *annot_set(lower *L, const char *annot);
static bool apply_scope(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                        base_srcloc loc, value **out);
static bool names_linearisations(const cat_expr *e);
static env *predefined_scopes(lower *L, env *en);
static bool apply_classes(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                          base_srcloc loc, value **out);
static const logic_rexpr *fences_of(lower *L);

static bool apply_more(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                       base_srcloc loc, value **out);

static value *apply(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                    base_srcloc loc)
{
    if (f->k == V_PRIM && strcmp(f->name, "different-values") == 0) {
        /* the pairs of r whose events' values differ (both have one) */
        value *v = eval(L, arg, argenv, mode);
        if (!v || v->k == V_EMPTY)
            return v;
        const logic_rexpr *r = as_rel(L, v, 2, loc, f->name);
        return r ? mkrel(L, logic_inter(L->b, r, logic_named(L->b, LOGIC_V_DIFFVAL, 2)), v->approx)
                 : NULL;
    }
    if (f->k == V_PRIM && strcmp(f->name, "tag2events") == 0) {
        /* the events annotated with the tag (stdlib's tag2instrs too) */
        value *v = eval(L, arg, argenv, mode);
        if (!v)
            return NULL;
        if (v->k != V_TAG)
            return err(L, loc, "tag2events of %s (it takes a tag, 'name)", kind_name(v));
        return annot_set(L, v->name);
    }
    if (f->k == V_PRIM && strcmp(f->name, "fromto") == 0) {
        /* the pairs of events po-before and po-after a fence of the set
         * (herd's instructions with from/to labels: ravel has none) */
        value *v = eval(L, arg, argenv, mode);
        if (!v || v->k == V_EMPTY)
            return v;
        const logic_rexpr *fs = as_rel(L, v, 1, loc, f->name);
        if (!fs)
            return NULL;
        fs = logic_inter(L->b, fs, fences_of(L));
        return mkrel(L, logic_seq(L->b, logic_seq(L->b, L->e->po, logic_id(L->b, fs)), L->e->po),
                     v->approx);
    }
    if (f->k == V_PRIM && strcmp(f->name, "same-oa") == 0) {
        /* same output address: only over events with translations
         * (-variant vmsa), which ravel's tests do not have */
        value *v = eval(L, arg, argenv, mode);
        if (!v)
            return NULL;
        if (static_empty(v))
            return mkval(L, V_EMPTY);
        return err(L, loc, "unsupported: herd's primitive 'same-oa' on a relation that may be "
                   "nonempty");
    }
    value *more;
    if (f->k == V_PRIM && apply_more(L, f, arg, argenv, mode, loc, &more))
        return more;
    if (f->k == V_PRIM && apply_scope(L, f, arg, argenv, mode, loc, &more))
        return more;
    if (f->k == V_PRIM && apply_classes(L, f, arg, argenv, mode, loc, &more))
        return more;
    if (f->k == V_PRIM) {
        bool range = strcmp(f->name, "range") == 0;
        if (!range && strcmp(f->name, "domain") != 0)
            return err(L, loc, "unsupported: herd's primitive '%s'", f->name);
        value *v = eval(L, arg, argenv, mode);
        if (!v)
            return NULL;
        if (v->k == V_EMPTY)
            return v;
        const logic_rexpr *r = as_rel(L, v, 2, loc, f->name);
        if (!r)
            return NULL;
        return mkrel(L, domain_of(L, r, range), v->approx);
    }
    if (f->k != V_FUN)
        return err(L, loc, "applying %s, which is not a function", kind_name(f));
    if (++L->depth > 200) {
        L->depth--;
        return err(L, loc, "function calls nested too deeply (unbounded recursion?)");
    }
    env *ne = f->cenv;
    value *res = NULL;
    if (bind_params(L, &f->fun->params, arg, argenv, &ne, loc))
        res = eval(L, f->fun->a, ne, mode);
    L->depth--;
    return res;
}

static const char *op_name(cat_ekind k)
{
    switch (k) {
    case CAT_E_UNION: return "'|'";
    case CAT_E_INTER: return "'&'";
    case CAT_E_DIFF: return "'\\'";
    case CAT_E_SEQ: return "';'";
    case CAT_E_PROD: return "'*' (cartesian product)";
    case CAT_E_STAR: return "'*'";
    case CAT_E_PLUS: return "'+'";
    case CAT_E_OPT: return "'?'";
    case CAT_E_INV: return "'^-1'";
    case CAT_E_COMP: return "'~'";
    case CAT_E_TOID: return "'[...]'";
    default: return "this operator";
    }
}

/* How many nested existentials applying r costs (a sequence whose one
 * side is [S] costs none: the grounder substitutes the equality). */
static uint32_t seq_weight(const logic_rexpr *r)
{
    switch (r->kind) {
    case LOGIC_R_UNION:
    case LOGIC_R_INTER:
    case LOGIC_R_DIFF: {
        uint32_t a = seq_weight(r->a), b = seq_weight(r->b);
        return a > b ? a : b;
    }
    case LOGIC_R_INV:
        return seq_weight(r->a);
    case LOGIC_R_SEQ: {
        uint32_t a = seq_weight(r->a), b = seq_weight(r->b);
        if (r->a->kind == LOGIC_R_ID)
            return b;
        if (r->b->kind == LOGIC_R_ID)
            return a;
        return 1 + (a > b ? a : b);
    }
    case LOGIC_R_FORMULA:
        return 1;
    default:
        return 0;
    }
}

/* r as an SO variable equal to it (EXACT) or containing it (OVER), so
 * that a sequence through it is a lookup per pair, not r's existentials
 * again: a chain r1;...;rk grounds in k*n^3 rather than n^(k+1). */
static const logic_rexpr *share(lower *L, const logic_rexpr *r, int mode)
{
    logic_sovar *w = new_var(L, "seq", r->arity);
    w->bound = r;
    w->bound_bits = may_eval(L, r, NULL, 0, 0);
    define(L, w, r, mode);
    return logic_r_sov(L->b, w);
}

static value *binop(lower *L, cat_ekind k, value *a, value *b, base_srcloc loc, int mode)
{
    if (!a || !b)
        return NULL;
    a = elems_rel(L, a);
    b = elems_rel(L, b);
    const char *op = op_name(k);
    if (!is_relational(a) || !is_relational(b))
        return err(L, loc, "%s needs sets or relations, not %s", op,
                   kind_name(is_relational(a) ? b : a));
    bool approx = a->approx || b->approx;
    bool pa = a->k != V_REL, pb = b->k != V_REL;
    if (pa && pb) { /* both 0 or _ */
        bool ea = a->k == V_EMPTY, eb = b->k == V_EMPTY;
        switch (k) {
        case CAT_E_UNION: return mkval(L, ea && eb ? V_EMPTY : V_UNIV);
        case CAT_E_INTER: return mkval(L, ea || eb ? V_EMPTY : V_UNIV);
        case CAT_E_DIFF: return mkval(L, ea || !eb ? V_EMPTY : V_UNIV);
        case CAT_E_SEQ:
        case CAT_E_PROD:
            if (ea || eb)
                return mkval(L, V_EMPTY);
            return mkrel(L, logic_prod(L->b, L->x, L->x), false);
        default: break;
        }
    }
    uint32_t ar = !pa ? a->r->arity : b->r->arity;
    if (k == CAT_E_SEQ)
        ar = 2;
    if (k == CAT_E_PROD)
        ar = 1;
    const logic_rexpr *ra = as_rel(L, a, ar, loc, op), *rb = ra ? as_rel(L, b, ar, loc, op) : NULL;
    if (!ra || !rb)
        return NULL;
    switch (k) {
    case CAT_E_UNION: return mkrel(L, logic_union(L->b, ra, rb), approx);
    case CAT_E_INTER: return mkrel(L, logic_inter(L->b, ra, rb), approx);
    case CAT_E_DIFF: return mkrel(L, logic_diff(L->b, ra, rb), approx);
    case CAT_E_SEQ: {
        bool shared = false;
        if (seq_weight(ra) > 0) {
            ra = share(L, ra, mode);
            shared = true;
        }
        if (seq_weight(rb) > 0) {
            rb = share(L, rb, mode);
            shared = true;
        }
        return mkrel(L, logic_seq(L->b, ra, rb), approx || (shared && mode == OVER));
    }
    case CAT_E_PROD: return mkrel(L, logic_prod(L->b, ra, rb), approx);
    default: return err(L, loc, "internal error: operator %d", (int)k);
    }
}

static value *unop(lower *L, cat_ekind k, value *a, int mode, base_srcloc loc)
{
    if (!a)
        return NULL;
    a = elems_rel(L, a);
    const char *op = op_name(k);
    if (!is_relational(a))
        return err(L, loc, "%s needs a set or relation, not %s", op, kind_name(a));
    switch (k) {
    case CAT_E_COMP:
        if (a->k == V_EMPTY)
            return mkval(L, V_UNIV);
        if (a->k == V_UNIV)
            return mkval(L, V_EMPTY);
        return mkrel(L, logic_diff(L->b, a->r->arity == 1 ? L->x : logic_prod(L->b, L->x, L->x),
                                   a->r), a->approx);
    case CAT_E_TOID: {
        if (a->k == V_EMPTY)
            return a;
        const logic_rexpr *s = as_rel(L, a, 1, loc, op);
        return s ? mkrel(L, logic_id(L->b, s), a->approx) : NULL;
    }
    default:
        break;
    }
    if (a->k == V_EMPTY)
        return k == CAT_E_INV || k == CAT_E_PLUS ? a : mkrel(L, logic_id(L->b, L->x), false);
    const logic_rexpr *r = as_rel(L, a, 2, loc, op);
    if (!r)
        return NULL;
    switch (k) {
    case CAT_E_INV: return mkrel(L, logic_inv(L->b, r), a->approx);
    case CAT_E_OPT: return mkrel(L, logic_union(L->b, logic_id(L->b, L->x), r), a->approx);
    case CAT_E_PLUS: return plus(L, r, mode, a->approx);
    case CAT_E_STAR: {
        value *p = plus(L, r, mode, a->approx);
        return mkrel(L, logic_union(L->b, logic_id(L->b, L->x), p->r), p->approx);
    }
    default: return err(L, loc, "internal error: operator %d", (int)k);
    }
}

static env *bind_rec(lower *L, const cat_bind *binds, uint32_t n, env *en, base_srcloc loc,
                     bool *ok);
static env *bind_let(lower *L, const cat_bind *binds, uint32_t n, env *en, bool *ok);

static value *eval(lower *L, const cat_expr *ex, env *en, int mode)
{
    if (++L->depth > 2000) {
        L->depth--;
        return err(L, ex->loc, "expression nested too deeply");
    }
    value *v = NULL;
    switch (ex->kind) {
    case CAT_E_VAR:
        v = lookup(L, en, ex->name, mode, ex->loc);
        break;
    case CAT_E_EMPTY:
        v = mkval(L, V_EMPTY);
        break;
    case CAT_E_UNIV:
        v = mkval(L, V_UNIV);
        break;
    case CAT_E_TAG:
        v = mkval(L, V_TAG);
        v->name = ex->name;
        break;
    case CAT_E_SET:
        v = eval_vset(L, ex, en);
        break;
    case CAT_E_TUPLE: {
        value **items = anew(L, (ex->nitems ? ex->nitems : 1) * sizeof *items);
        bool ok = true;
        for (uint32_t i = 0; i < ex->nitems && ok; i++)
            ok = (items[i] = eval(L, ex->items[i], en, mode)) != NULL;
        if (ok) {
            v = mkval(L, V_TUPLE);
            v->items = items;
            v->n = ex->nitems;
        }
        break;
    }
    case CAT_E_INTER: {
        /* the right operand first: when it is empty the left one (often
         * a whole model passed as an argument) is not needed */
        value *b = eval(L, ex->b, en, mode);
        if (b && static_empty(b)) {
            v = b;
            break;
        }
        v = b ? binop(L, ex->kind, eval(L, ex->a, en, mode), b, ex->loc, mode) : NULL;
        break;
    }
    case CAT_E_SEQ:
    case CAT_E_PROD: {
        value *a = eval(L, ex->a, en, mode);
        if (a && static_empty(a) && ex->kind == CAT_E_SEQ) {
            v = mkval(L, V_EMPTY);
            break;
        }
        if (a && a->k == V_EMPTY) {
            v = a;
            break;
        }
        v = a ? binop(L, ex->kind, a, eval(L, ex->b, en, mode), ex->loc, mode) : NULL;
        break;
    }
    case CAT_E_UNION: {
        value *a = eval(L, ex->a, en, mode);
        v = a ? binop(L, ex->kind, a, eval(L, ex->b, en, mode), ex->loc, mode) : NULL;
        break;
    }
    case CAT_E_DIFF: {
        value *a = eval(L, ex->a, en, mode);
        if (a && static_empty(a)) { /* the right side is not needed */
            v = a;
            break;
        }
        v = a ? binop(L, ex->kind, a, eval(L, ex->b, en, EXACT), ex->loc, mode) : NULL;
        break;
    }
    case CAT_E_ADD:
        v = eval_add(L, ex, en);
        break;
    case CAT_E_COMP:
        v = unop(L, ex->kind, eval(L, ex->a, en, EXACT), mode, ex->loc);
        break;
    case CAT_E_STAR:
    case CAT_E_PLUS:
    case CAT_E_OPT:
    case CAT_E_INV:
    case CAT_E_TOID:
        v = unop(L, ex->kind, eval(L, ex->a, en, mode), mode, ex->loc);
        break;
    case CAT_E_APP: {
        value *f = eval(L, ex->a, en, mode);
        v = f ? apply(L, f, ex->b, en, mode, ex->loc) : NULL;
        break;
    }
    case CAT_E_FUN:
        v = mkval(L, V_FUN);
        v->fun = ex;
        v->cenv = en;
        break;
    case CAT_E_LET:
    case CAT_E_LETREC: {
        bool ok = true;
        env *ne = ex->kind == CAT_E_LET ? bind_let(L, ex->binds, ex->nbinds, en, &ok)
                                        : bind_rec(L, ex->binds, ex->nbinds, en, ex->loc, &ok);
        v = ok ? eval(L, ex->a, ne, mode) : NULL;
        break;
    }
    case CAT_E_TRY:
        L->quiet++;
        v = eval(L, ex->a, en, mode);
        L->quiet--;
        if (!v)
            v = eval(L, ex->b, en, mode);
        break;
    case CAT_E_IF:
        if (ex->op && strcmp(ex->op, "variant") == 0) /* decided while parsing (-variant) */
            v = eval(L, ex->nitems ? ex->a : ex->b, en, mode);
        else
            v = eval_if(L, ex, en, mode);
        break;
    case CAT_E_MATCH:
        v = eval_match(L, ex, en, mode);
        break;
    }
    L->depth--;
    return v;
}

/* --- sets of values ({a, b}, x ++ s, match), decided while lowering --- */

/* Is v empty in every execution (known while lowering)? */
static bool static_empty(const value *v)
{
    return v->k == V_EMPTY || (v->k == V_REL && v->r->kind == LOGIC_R_EMPTY) ||
           (v->k == V_VSET && v->n == 0);
}

static value *mkvset(lower *L, value **items, uint32_t n)
{
    value *v = mkval(L, V_VSET);
    v->items = anew(L, (n ? n : 1) * sizeof *v->items);
    for (uint32_t i = 0; i < n; i++)
        v->items[i] = items[i];
    v->n = n;
    return v;
}

static value *eval_vset(lower *L, const cat_expr *ex, env *en)
{
    value **items = anew(L, (ex->nitems ? ex->nitems : 1) * sizeof *items);
    for (uint32_t i = 0; i < ex->nitems; i++)
        if (!(items[i] = eval(L, ex->items[i], en, EXACT)))
            return NULL;
    return mkvset(L, items, ex->nitems);
}

/* x ++ s: s a set of values (or {}), x added in front */
static value *eval_add(lower *L, const cat_expr *ex, env *en)
{
    value *x = eval(L, ex->a, en, EXACT);
    value *s = x ? eval(L, ex->b, en, EXACT) : NULL;
    if (!s)
        return NULL;
    if (s->k != V_VSET && s->k != V_EMPTY)
        return err(L, ex->loc, "unsupported: '++' on %s (only on sets of values)", kind_name(s));
    value **items = anew(L, (s->n + 1) * sizeof *items);
    items[0] = x;
    for (uint32_t i = 0; s->k == V_VSET && i < s->n; i++)
        items[i + 1] = s->items[i];
    return mkvset(L, items, s->k == V_VSET ? s->n + 1 : 1);
}

/* --- sets of the execution taken apart (match ... with e ++ s) ---
 *
 * herd's library maps over the events of a set of the execution (lock.cat's
 * `map possible-rfe-lf (LF \ range(rfi-lf))`, stdlib's map, cross.cat's
 * cross) to build the values of a `with X from`. Inside the expression of a
 * `with X from` (with_from_static), ravel evaluates it case by case: a
 * `match` taking a set apart decides, for the tuples the set may hold (its
 * may-bits), whether the case puts each in it; the first one in is the
 * element e (a constant set or relation of one tuple), the rest s. Each
 * evaluation gives the value for one combination of decisions, its guard
 * the conjunction of those memberships; with_from_cases joins them. Values
 * computed from decisions are not memoized (force). */

/* The constant set of one event, or relation of one pair, as an element. */
static value *mkelem(lower *L, uint32_t arity, uint32_t t0, uint32_t t1)
{
    logic_builder *b = L->b;
    int32_t x = logic_fresh_var(b), y = arity == 2 ? logic_fresh_var(b) : 0;
    const logic_formula *f = logic_eq(b, x, logic_const(t0));
    if (arity == 2)
        f = logic_and2(b, f, logic_eq(b, y, logic_const(t1)));
    value *v = mkrel(L, logic_r_formula(b, arity, x, y, f), false);
    v->elem = true;
    struct constbits cb = { v->r, may_new(L, arity, false) };
    uint32_t row = arity == 2 ? t0 : 0, col = arity == 2 ? t1 : t0;
    cb.bits[row * may_words(L) + col / 64] |= (uint64_t)1 << (col % 64);
    base_vec_push(&L->consts, cb);
    return v;
}

/* A set of values holding only elements of one arity, as the set or
 * relation of them (herd's {e} is a set of events); else v itself. */
static value *elems_rel(lower *L, value *v)
{
    if (!v || v->k != V_VSET || v->n == 0)
        return v;
    const logic_rexpr *r = NULL;
    for (uint32_t i = 0; i < v->n; i++) {
        const value *it = v->items[i];
        if (it->k != V_REL || !it->elem || (r && r->arity != it->r->arity))
            return v;
        r = r ? logic_union(L->b, r, it->r) : it->r;
    }
    return mkrel(L, r, false);
}

enum { MAX_DECISIONS = 24, MAX_CASES = 1024 };

/* Is tuple (t0, t1) in base in the case being evaluated? A decision of this
 * evaluation, else the next one, forced by the case or false the first
 * time. -1: too many. */
static int decide(lower *L, const logic_rexpr *base, uint32_t t0, uint32_t t1)
{
    L->consults++;
    for (size_t i = 0; i < L->dec.len; i++) {
        const struct decision *d = &L->dec.data[i];
        if (d->base == base && d->t0 == t0 && d->t1 == t1)
            return d->val;
    }
    if (L->dec.len == MAX_DECISIONS)
        return -1;
    struct decision d = { base, t0, t1, L->dec.len < L->forced.len && L->forced.data[L->dec.len] };
    base_vec_push(&L->dec, d);
    return d.val;
}

/* Once tuple (t0, t1) is in the set, its events run, so a tuple with an
 * event in conflict with them (another path of a thread) is not: drops
 * those from cand, which needs no decision on them. */
static void prune_conflicts(lower *L, uint64_t *cand, uint32_t ar, uint32_t t0, uint32_t t1)
{
    const logic_structure *st = L->b->st;
    int cf = logic_structure_find(st, LOGIC_V_CONFLICT);
    if (cf < 0)
        return;
    uint32_t n = st->n, mine[2] = { t0, t1 }, nm = ar == 2 ? 2 : 1;
    size_t w = may_words(L);
    for (uint32_t i = 0; i < (ar == 2 ? n : 1); i++)
        for (uint32_t c = 0; c < n; c++) {
            if (!may_get(cand, w, i, c))
                continue;
            uint32_t theirs[2] = { ar == 2 ? i : c, c };
            bool clash = false;
            for (uint32_t a = 0; a < nm && !clash; a++)
                for (uint32_t k = 0; k < nm && !clash; k++)
                    clash = logic_rel_get2(st, (uint32_t)cf, mine[a], theirs[k]) ||
                            logic_rel_get2(st, (uint32_t)cf, theirs[k], mine[a]);
            if (clash)
                cand[i * w + c / 64] &= ~((uint64_t)1 << (c % 64));
        }
}

static bool match_takes_apart(const cat_expr *ex)
{
    for (uint32_t i = 0; i < ex->nbinds; i++)
        if (ex->binds[i].lhs.tuple && ex->binds[i].lhs.n == 2)
            return true;
    return false;
}

/* match r with {} -> a || e ++ s -> b || name -> c end on a set or
 * relation r of the execution, case by case (above): the clauses are
 * tried in order, as herd does. */
static value *match_split(lower *L, const cat_expr *ex, env *en, int mode, value *v)
{
    uint32_t n = L->b->st->n, ar = v->r->arity;
    size_t w = may_words(L), total = w * (ar == 2 ? n : 1);
    /* Taken apart within the executed events (herd's sets never hold
     * others): a tuple decided in is then executed, which is what lets
     * prune_conflicts drop the tuples in conflict with it. */
    const logic_rexpr *r = v->base ? v->r
                           : ar == 1 ? logic_inter(L->b, v->r, L->x)
                                     : logic_restrict(L->b, L->x, v->r, L->x);
    const logic_rexpr *base = v->base ? v->base : r;
    uint64_t *cand = anew(L, total * sizeof *cand);
    memcpy(cand, v->cand ? v->cand : may_eval(L, r, NULL, 0, 0), total * sizeof *cand);
    value *e = NULL, *rest = NULL;
    for (uint32_t i = 0; i < (ar == 2 ? n : 1) && !e; i++)
        for (uint32_t c = 0; c < n && !e; c++) {
            if (!may_get(cand, w, i, c))
                continue;
            cand[i * w + c / 64] &= ~((uint64_t)1 << (c % 64));
            uint32_t t0 = ar == 2 ? i : c, t1 = ar == 2 ? c : 0;
            int in = decide(L, base, t0, t1);
            if (in < 0)
                return err(L, ex->loc, "unsupported: 'match' taking sets of the execution apart "
                           "over more than %d possible elements", MAX_DECISIONS);
            if (in) {
                prune_conflicts(L, cand, ar, t0, t1);
                e = mkelem(L, ar, t0, t1);
                rest = mkrel(L, logic_diff(L->b, r, e->r), v->approx);
                rest->base = base;
                rest->cand = cand;
            }
        }
    for (uint32_t k = 0; k < ex->nbinds; k++) {
        const cat_params *pat = &ex->binds[k].lhs;
        env *ne = en;
        if (pat->tuple && pat->n == 0) { /* {} */
            if (e)
                continue;
        } else if (pat->tuple && pat->n == 2) { /* e ++ s */
            if (!e)
                continue;
            if (pat->names[0])
                ne = bind_value(L, ne, pat->names[0], e);
            if (pat->names[1])
                ne = bind_value(L, ne, pat->names[1], rest);
        } else if (!pat->tuple && (!pat->names[0] || pat->names[0][0] != '\'')) { /* x, _ */
            if (pat->names[0])
                ne = bind_value(L, ne, pat->names[0], v);
        } else {
            return err(L, ex->binds[k].loc, "unsupported: a tag pattern in 'match' on %s",
                       kind_name(v));
        }
        return eval(L, ex->binds[k].rhs, ne, mode);
    }
    return err(L, ex->loc, "no 'match' clause applies");
}

/* match r with {} -> a || _ -> b end on a relation r of the execution: a
 * where r is empty, b where it is not, joined by a guard, a set variable
 * that is every event when r is empty and none otherwise (so the result
 * is exact). The clauses are tried in order, as herd does; an `e ++ s`
 * clause (taking the relation apart) is not supported. */
static value *match_exec(lower *L, const cat_expr *ex, env *en, int mode, value *v)
{
    const cat_expr *on_empty = NULL, *other = NULL;
    const char *name = NULL;
    for (uint32_t i = 0; i < ex->nbinds && !other; i++) {
        const cat_params *pat = &ex->binds[i].lhs;
        if (pat->tuple && pat->n == 0) {
            if (!on_empty)
                on_empty = ex->binds[i].rhs;
        } else if (!pat->tuple && (!pat->names[0] || pat->names[0][0] != '\'')) {
            other = ex->binds[i].rhs;
            name = pat->names[0];
        } else {
            return err(L, ex->binds[i].loc, "unsupported: %s pattern in 'match' on %s that "
                       "depends on the execution", pat->tuple ? "an 'e ++ s'" : "a tag",
                       kind_name(v));
        }
    }
    if (!other)
        return err(L, ex->loc, "unsupported: 'match' on %s that depends on the execution "
                   "without a '_' clause", kind_name(v));
    env *ne = name ? bind_value(L, en, name, v) : en;
    value *b = eval(L, other, ne, mode);
    value *a = on_empty ? eval(L, on_empty, en, mode) : b;
    if (!a || !b)
        return NULL;
    if (a == b)
        return a;
    uint32_t arity = a->k == V_REL ? a->r->arity : b->k == V_REL ? b->r->arity : 0;
    if (arity == 0) {
        if (a->k == b->k && (a->k == V_EMPTY || a->k == V_UNIV))
            return a;
        return err(L, ex->loc, "unsupported: 'match' on %s that depends on the execution, "
                   "giving %s", kind_name(v), a->k == V_REL || a->k == V_EMPTY ? kind_name(b)
                                                                            : kind_name(a));
    }
    return select_by(L, ex->loc, "each 'match' clause", logic_empty(L->b, v->r), a, b);
}

/* match t with 'a -> e1 || 'b -> e2 || _ -> e3 end on a tag t: the clause
 * of t's tag, else the first name or _ clause. */
static value *match_tag(lower *L, const cat_expr *ex, env *en, int mode, const value *t)
{
    for (uint32_t i = 0; i < ex->nbinds; i++) {
        const cat_params *pat = &ex->binds[i].lhs;
        if (pat->tuple)
            continue; /* {} and x ++ s: sets, never a tag */
        const char *name = pat->names[0];
        env *ne = en;
        if (name && name[0] == '\'') {
            if (strcmp(name + 1, t->name) != 0)
                continue;
        } else if (name) {
            ne = bind_value(L, ne, name, (value *)t);
        }
        return eval(L, ex->binds[i].rhs, ne, mode);
    }
    return err(L, ex->loc, "no 'match' clause applies to the tag '%s", t->name);
}

/* match e with {} -> a || x ++ s -> b || name -> c end, on a set of values
 * or on a relation whose emptiness is known while lowering (herd
 * decides it per execution: a relation of the execution is unsupported). */
static value *eval_match(lower *L, const cat_expr *ex, env *en, int mode)
{
    value *v = eval(L, ex->a, en, EXACT);
    if (!v)
        return NULL;
    /* empty in every execution: by its form, or by what it may contain in
     * any execution of this test (lock.cat matches LKR & W and the like) */
    bool empty = static_empty(v) ||
                 (v->k == V_REL && may_count(L, may_eval(L, v->r, NULL, 0, 0), v->r->arity) == 0);
    if (v->k == V_REL && v->cand)
        empty = may_count(L, v->cand, v->r->arity) == 0;
    if (v->k == V_TAG)
        return match_tag(L, ex, en, mode, v);
    if (!empty && v->k == V_REL && !v->approx && L->casing && match_takes_apart(ex))
        return match_split(L, ex, en, mode, v);
    if (!empty && v->k == V_REL && !v->approx)
        return match_exec(L, ex, en, mode, v);
    if (!empty && v->k != V_VSET)
        return err(L, ex->loc, "unsupported: 'match' on %s that depends on the execution",
                   kind_name(v));
    for (uint32_t i = 0; i < ex->nbinds; i++) {
        const cat_params *pat = &ex->binds[i].lhs;
        env *ne = en;
        if (pat->tuple && pat->n == 0) { /* {} */
            if (!empty)
                continue;
        } else if (pat->tuple && pat->n == 2) { /* x ++ s */
            if (empty)
                continue;
            if (pat->names[0])
                ne = bind_value(L, ne, pat->names[0], v->items[0]);
            if (pat->names[1])
                ne = bind_value(L, ne, pat->names[1], mkvset(L, v->items + 1, v->n - 1));
        } else if (!pat->tuple && (!pat->names[0] || pat->names[0][0] != '\'')) { /* x, _ */
            if (pat->names[0])
                ne = bind_value(L, ne, pat->names[0], v);
        } else {
            return err(L, ex->binds[i].loc, "unsupported: a tag or alternative pattern in 'match'");
        }
        return eval(L, ex->binds[i].rhs, ne, mode);
    }
    return err(L, ex->loc, "no 'match' clause applies");
}

static env *bind_let(lower *L, const cat_bind *binds, uint32_t n, env *en, bool *ok)
{
    env *ne = en;
    for (uint32_t i = 0; i < n; i++) {
        const cat_bind *bd = &binds[i];
        if (!bd->lhs.tuple) {
            if (bd->lhs.names[0])
                ne = bind_thunk(L, ne, bd->lhs.names[0], mkthunk(L, bd->rhs, en, bd->lhs.names[0]));
            continue;
        }
        value *v = eval(L, bd->rhs, en, EXACT);
        if (!v) {
            *ok = false;
            return ne;
        }
        if (v->k != V_TUPLE || v->n != bd->lhs.n) {
            err(L, bd->loc, "binding %u names to %s", bd->lhs.n, kind_name(v));
            *ok = false;
            return ne;
        }
        for (uint32_t k = 0; k < v->n; k++)
            if (bd->lhs.names[k])
                ne = bind_value(L, ne, bd->lhs.names[k], v->items[k]);
    }
    return ne;
}

static env *bind_rec(lower *L, const cat_bind *binds, uint32_t n, env *en, base_srcloc loc,
                     bool *ok)
{
    recgroup *g = anew(L, sizeof *g);
    g->binds = binds;
    g->n = n;
    g->outer = en;
    env *ne = en;
    value **funs = anew(L, n * sizeof *funs);
    for (uint32_t i = 0; i < n; i++) {
        const cat_bind *bd = &binds[i];
        if (bd->lhs.tuple) {
            err(L, bd->loc, "unsupported: a tuple pattern in 'let rec'");
            *ok = false;
            return ne;
        }
        if (!bd->lhs.names[0])
            continue;
        if (bd->rhs->kind == CAT_E_FUN) {
            funs[i] = mkval(L, V_FUN);
            funs[i]->fun = bd->rhs;
            ne = bind_value(L, ne, bd->lhs.names[0], funs[i]);
        } else {
            thunk *t = mkthunk(L, bd->rhs, NULL, bd->lhs.names[0]);
            t->group = g;
            t->index = i;
            ne = bind_thunk(L, ne, bd->lhs.names[0], t);
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (funs[i])
            funs[i]->cenv = ne;
    (void)loc;
    return ne;
}

/* The environment in which a group's right-hand sides are evaluated, with
 * its relation members bound to vals. */
static env *rec_env(lower *L, recgroup *g, value **vals)
{
    env *ne = g->outer;
    value **funs = anew(L, g->n * sizeof *funs);
    for (uint32_t i = 0; i < g->n; i++) {
        const cat_bind *bd = &g->binds[i];
        if (!bd->lhs.names[0])
            continue;
        if (bd->rhs->kind == CAT_E_FUN) {
            funs[i] = mkval(L, V_FUN);
            funs[i]->fun = bd->rhs;
            ne = bind_value(L, ne, bd->lhs.names[0], funs[i]);
        } else {
            ne = bind_value(L, ne, bd->lhs.names[0], vals[i]);
        }
    }
    for (uint32_t i = 0; i < g->n; i++)
        if (funs[i])
            funs[i]->cenv = ne;
    return ne;
}

static bool is_member(const recgroup *g, uint32_t i)
{
    return g->binds[i].lhs.names[0] && g->binds[i].rhs->kind != CAT_E_FUN;
}

/* Does a member of g occur in ex where the value of ex may shrink when the
 * member grows (right of \, under ~), or where that is not known (an
 * argument of a function other than domain and range)? Conservative:
 * shadowing is ignored. */
static bool occurs_nonmono(const recgroup *g, const cat_expr *ex, bool neg, uint32_t depth)
{
    if (!ex)
        return false;
    if (depth > 500)
        return true;
    switch (ex->kind) {
    case CAT_E_VAR:
        if (!neg)
            return false;
        for (uint32_t i = 0; i < g->n; i++)
            if (g->binds[i].lhs.names[0] && strcmp(g->binds[i].lhs.names[0], ex->name) == 0)
                return true;
        return false;
    case CAT_E_DIFF:
        return occurs_nonmono(g, ex->a, neg, depth + 1) || occurs_nonmono(g, ex->b, true, depth + 1);
    case CAT_E_COMP:
        return occurs_nonmono(g, ex->a, true, depth + 1);
    case CAT_E_APP: {
        bool known = ex->a->kind == CAT_E_VAR &&
                     (strcmp(ex->a->name, "domain") == 0 || strcmp(ex->a->name, "range") == 0);
        return occurs_nonmono(g, ex->a, neg, depth + 1) ||
               occurs_nonmono(g, ex->b, neg || !known, depth + 1);
    }
    case CAT_E_LET:
    case CAT_E_LETREC:
        for (uint32_t i = 0; i < ex->nbinds; i++)
            if (occurs_nonmono(g, ex->binds[i].rhs, true, depth + 1))
                return true; /* a let-bound name may be used anywhere */
        return occurs_nonmono(g, ex->a, neg, depth + 1);
    default:
        for (uint32_t i = 0; ex->items && i < ex->nitems; i++)
            if (occurs_nonmono(g, ex->items[i], true, depth + 1))
                return true;
        return occurs_nonmono(g, ex->a, neg || ex->kind == CAT_E_FUN, depth + 1) ||
               occurs_nonmono(g, ex->b, neg, depth + 1);
    }
}

static bool group_monotone(const recgroup *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (occurs_nonmono(g, g->binds[i].rhs, false, 0))
            return false;
    return true;
}

/* Sets each member's bound_bits to the least fixpoint of the may
 * abstraction of its definition rs[i] (monotone: at most as many rounds as
 * there are tuples). */
static void rec_may_bound(lower *L, recgroup *g, logic_sovar **xs, const logic_rexpr **rs,
                          const uint32_t *arity)
{
    uint32_t n = g->n;
    maysov *ks = anew(L, n * sizeof *ks);
    uint32_t nks = 0;
    for (uint32_t i = 0; i < n; i++)
        if (is_member(g, i)) {
            ks[nks].v = xs[i];
            ks[nks++].bits = may_new(L, arity[i], false);
        }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0, k = 0; i < n; i++) {
            if (!is_member(g, i))
                continue;
            uint64_t *nb = may_eval(L, rs[i], ks, nks, 0);
            size_t total = may_words(L) * (arity[i] == 2 ? L->b->st->n : 1);
            if (memcmp(nb, ks[k].bits, total * sizeof *nb) != 0) {
                uint64_t *u = may_new(L, arity[i], false);
                for (size_t j = 0; j < total; j++)
                    u[j] = nb[j] | ks[k].bits[j];
                changed |= memcmp(u, ks[k].bits, total * sizeof *u) != 0;
                ks[k].bits = u;
            }
            k++;
        }
    }
    for (uint32_t i = 0, k = 0; i < n; i++)
        if (is_member(g, i))
            xs[i]->bound_bits = ks[k++].bits;
}

static value *force_rec(lower *L, recgroup *g, uint32_t idx, int mode, base_srcloc loc)
{
    /* a prefixpoint is the least fixpoint's stand-in only for monotone
     * definitions; the others are unrolled (herd iterates them from the
     * empty relation too) */
    if (mode == OVER && !group_monotone(g))
        mode = EXACT;
    if (g->vals[mode])
        return g->vals[mode][idx];
    if (g->busy[mode])
        return err(L, loc, "unsupported: '%s' used inside a function while its 'let rec' "
                   "fixpoint is computed", g->binds[idx].lhs.names[0]);
    g->busy[mode] = true;
    uint32_t n = g->n;
    value **cur = anew(L, n * sizeof *cur);
    uint32_t *arity = anew(L, n * sizeof *arity);
    bool ok = true;
    /* arities: evaluate from the empty relations, typed as far as known,
     * until nothing new is learnt (0 means not known yet: a relation) */
    env *ne;
    L->quiet++;
    for (uint32_t round = 0, changed = 1; changed && round <= n; round++) {
        changed = 0;
        for (uint32_t i = 0; i < n; i++)
            cur[i] = arity[i] ? mkrel(L, logic_r_empty(L->b, arity[i]), false) : mkval(L, V_EMPTY);
        ne = rec_env(L, g, cur);
        for (uint32_t i = 0; i < n; i++) {
            if (!is_member(g, i) || arity[i])
                continue;
            /* OVER: the cheaper encoding of what the body uses (an exact
             * one would unroll the other fixpoints it mentions) */
            value *v = eval(L, g->binds[i].rhs, ne, OVER);
            if (v && v->k == V_REL) {
                arity[i] = v->r->arity;
                changed = 1;
            }
        }
    }
    L->quiet--;
    for (uint32_t i = 0; i < n; i++) {
        if (!arity[i])
            arity[i] = 2;
        cur[i] = mkval(L, V_EMPTY);
    }
    ne = rec_env(L, g, cur);
    if (mode == OVER) {
        /* a prefixpoint f(X) <= X for each member */
        logic_sovar **xs = anew(L, n * sizeof *xs);
        const logic_rexpr **rs = anew(L, n * sizeof *rs);
        for (uint32_t i = 0; i < n; i++)
            if (is_member(g, i)) {
                xs[i] = new_var(L, g->binds[i].lhs.names[0], arity[i]);
                cur[i] = mkrel(L, logic_r_sov(L->b, xs[i]), true);
            }
        ne = rec_env(L, g, cur);
        for (uint32_t i = 0; i < n && ok; i++) {
            if (!is_member(g, i))
                continue;
            const cat_bind *bd = &g->binds[i];
            value *v = eval(L, bd->rhs, ne, OVER);
            const logic_rexpr *r = v ? as_rel(L, v, arity[i], bd->loc, "let rec") : NULL;
            if (!r) {
                ok = false;
                break;
            }
            rs[i] = r;
            push_def(L, logic_sub_split(L->b, r, cur[i]->r), xs[i]);
        }
        /* each X within the static least fixpoint (the may-bits iterated
         * from empty until stable): the least fixpoint lies within it, so
         * the solver may still choose it */
        if (ok)
            rec_may_bound(L, g, xs, rs, arity);
    } else {
        /* Kleene iteration from the empty relations: each round that
         * changes adds a tuple, so there are at most that many rounds.
         * Within a round the members are computed in order, each seeing
         * the values computed before it in that round, as herd7 does
         * (its fix_step): for a definition that is not monotone, like the
         * LKMM's rcu-rscs (matched = matched | (... \ (unmatched-po ;
         * unmatched-po))), computing each member from the previous round
         * alone gives another, larger result (e2e litmus_cat_let_rec_order) */
        uint64_t rounds = 0, nn = L->b->st->n;
        for (uint32_t i = 0; i < n; i++)
            if (is_member(g, i))
                rounds += arity[i] == 1 ? nn : nn * nn;
        /* fewer rounds: as many as the members' static (may) bounds have
         * tuples, once those bounds are stable (they are the abstract
         * iteration's, which is monotone) */
        maysov *ks = anew(L, n * sizeof *ks);
        uint32_t nks = 0;
        uint64_t prev_may = UINT64_MAX;
        for (uint64_t k = 0; k < rounds && ok; k++) {
            maysov *nextks = anew(L, n * sizeof *nextks);
            uint32_t nnext = 0;
            uint64_t may = 0;
            value **next = anew(L, n * sizeof *next);
            for (uint32_t i = 0; i < n; i++)
                next[i] = cur[i];
            for (uint32_t i = 0; i < n && ok; i++) {
                if (!is_member(g, i))
                    continue;
                const cat_bind *bd = &g->binds[i];
                value *v = eval(L, bd->rhs, ne, EXACT);
                const logic_rexpr *r = v ? as_rel(L, v, arity[i], bd->loc, "let rec") : NULL;
                if (!r) {
                    ok = false;
                    break;
                }
                logic_sovar *w = new_var(L, bd->lhs.names[0], arity[i]);
                w->bound = r;
                define(L, w, r, EXACT);
                const logic_rexpr *wr = logic_r_sov(L->b, w);
                next[i] = mkrel(L, wr, false);
                ne = rec_env(L, g, next);
                uint64_t *mb = may_eval(L, r, ks, nks, 0);
                may += may_count(L, mb, arity[i]);
                nextks[nnext].v = w;
                nextks[nnext++].bits = mb;
            }
            if (!ok)
                break;
            cur = next;
            ne = rec_env(L, g, cur);
            ks = nextks;
            nks = nnext;
            if (may == prev_may && k + 1 >= may + 1)
                break;
            prev_may = may;
        }
        for (uint32_t i = 0; i < n && ok; i++)
            if (is_member(g, i) && cur[i]->k == V_EMPTY)
                cur[i] = mkrel(L, logic_r_empty(L->b, arity[i]), false);
    }
    g->busy[mode] = false;
    if (!ok)
        return NULL;
    g->vals[mode] = cur;
    return cur[idx];
}

/* --- instructions --- */

/* assert empty r: r must be empty without looking at the execution
 * (herd stops with an error when an assertion fails). */
static bool assert_static(lower *L, const cat_ins *ins, env *en)
{
    value *v = eval(L, ins->e, en, EXACT);
    if (!v)
        return false;
    if (ins->test == CAT_T_EMPTY && !ins->negated && static_empty(v))
        return true;
    err(L, ins->loc, "unsupported: an 'assert' that may depend on the execution");
    return false;
}

static bool exec_list(lower *L, const cat_ins_list *list, env **en);
static bool with_from_static(lower *L, const cat_ins *ins, env **en);
static bool requires_check(lower *L, const cat_ins *ins, env *en);
static bool exec_forall(lower *L, const cat_ins *ins, env *en);
static bool with_from_orders(lower *L, const cat_ins *ins, env **en, bool *ok);
static const logic_rexpr *co_of(lower *L);

static const logic_formula *test_formula(lower *L, const cat_ins *ins, value *v, int mode)
{
    const char *what = ins->test == CAT_T_ACYCLIC ? "acyclic"
                       : ins->test == CAT_T_IRREFLEXIVE ? "irreflexive" : "empty";
    if (v->k == V_EMPTY)
        return logic_true(L->b);
    uint32_t ar = v->k == V_REL && ins->test == CAT_T_EMPTY ? v->r->arity : 2;
    const logic_rexpr *r = as_rel(L, v, ar, ins->loc, what);
    if (!r)
        return NULL;
    switch (ins->test) {
    case CAT_T_ACYCLIC:
        if (mode == OVER)
            return logic_acyclic(L->b, ins->name ? ins->name : "acyclic", r, L->e->conflict);
        return logic_irrefl(L->b, plus_exact(L, r));
    case CAT_T_IRREFLEXIVE:
        return logic_irrefl(L->b, r);
    case CAT_T_EMPTY:
        return logic_empty(L->b, r);
    }
    return NULL;
}

static bool exec_ins(lower *L, const cat_ins *ins, env **en)
{
    bool ok = true;
    switch (ins->kind) {
    case CAT_I_LET:
        *en = bind_let(L, ins->binds, ins->nbinds, *en, &ok);
        return ok;
    case CAT_I_REC:
        *en = bind_rec(L, ins->binds, ins->nbinds, *en, ins->loc, &ok);
        return ok;
    case CAT_I_CHECK: {
        if (ins->check == CAT_C_REQUIRES)
            return requires_check(L, ins, *en);
        if (ins->check == CAT_C_ASSERT)
            return assert_static(L, ins, *en);
        int mode = ins->check == CAT_C_FLAG || ins->negated ? EXACT : OVER;
        value *v = eval(L, ins->e, *en, mode);
        const logic_formula *f = v ? test_formula(L, ins, v, mode) : NULL;
        if (!f)
            return false;
        if (ins->negated)
            f = logic_not(L->b, f);
        if (ins->check == CAT_C_FLAG) {
            logic_mm_flag fl = { ins->name ? ins->name : "flag", f };
            base_vec_push(&L->flags, fl);
        } else {
            char what[96];
            if (!ins->name)
                snprintf(what, sizeof what, "%s%s (line %u)", ins->negated ? "~" : "",
                         ins->test == CAT_T_ACYCLIC ? "acyclic"
                         : ins->test == CAT_T_IRREFLEXIVE ? "irreflexive" : "empty",
                         ins->loc.line);
            base_vec_push(&L->parts, logic_check_named(L->b, ins->name ? ins->name : what, f));
        }
        return true;
    }
    case CAT_I_SHOW:
    case CAT_I_DEBUG:
    case CAT_I_EVENTS:
        return true;
    case CAT_I_ENUM:
        /* each tag 'name is the set Name of the events annotated name */
        for (uint32_t i = 0; i < ins->ntags; i++) {
            const char *t = ins->tags[i];
            char *cap = base_arena_strdup(&L->b->arena, t);
            if (cap[0] >= 'a' && cap[0] <= 'z')
                cap[0] = (char)(cap[0] - 'a' + 'A');
            char buf[256];
            snprintf(buf, sizeof buf, "%s%s", LOGIC_V_ANNOT_PREFIX, t);
            *en = bind_value(L, *en, cap, mkrel(L, logic_inter(L->b, logic_named(L->b, buf, 1), L->x),
                                                false));
        }
        return true;
    case CAT_I_INCLUDE:
        return exec_list(L, &ins->body, en);
    case CAT_I_PROC: {
        value *p = mkval(L, V_PROC);
        p->proc = ins;
        *en = bind_value(L, *en, ins->name, p);
        p->cenv = *en; /* a procedure may call itself */
        return true;
    }
    case CAT_I_CALL: {
        value *p = lookup(L, *en, ins->name, EXACT, ins->loc);
        if (!p)
            return false;
        if (p->k != V_PROC) {
            err(L, ins->loc, "'call %s': %s, not a procedure", ins->name, kind_name(p));
            return false;
        }
        if (++L->depth > 200) {
            L->depth--;
            err(L, ins->loc, "procedure calls nested too deeply");
            return false;
        }
        env *ne = p->cenv;
        ok = bind_params(L, &p->proc->params, ins->e, *en, &ne, ins->loc) &&
             exec_list(L, &p->proc->body, &ne);
        L->depth--;
        return ok;
    }
    case CAT_I_WITHFROM:
        if (strcmp(ins->name, "co") == 0 && names_linearisations(ins->e)) {
            /* herd's co would then be one order over the whole set, not
             * ravel's per-location coherence: refused, not guessed */
            err(L, ins->loc, "unsupported: 'with co from linearisations(...)' (ravel's co is "
                "the coherence order it generates per location)");
            return false;
        }
        if (strcmp(ins->name, "co") != 0 && with_from_orders(L, ins, en, &ok))
            return ok;
        if (strcmp(ins->name, "co") != 0)
            return with_from_static(L, ins, en);
        /* herd enumerates the coherence orders the expression generates
         * (every linearisation per location); ravel's co ranges over the
         * same orders as an SO variable */
        *en = bind_value(L, *en, "co", mkrel(L, co_of(L), false));
        return true;
    case CAT_I_VARIANT:
        /* the condition, decided while parsing (-variant) */
        return exec_list(L, ins->negated ? &ins->body : &ins->body2, en);
    case CAT_I_MATCH:
        err(L, ins->loc, "unsupported: 'match' instructions");
        return false;
    case CAT_I_FORALL:
        return exec_forall(L, ins, *en);
    }
    return false;
}

/* with X from {r1, ..., rn}, relations (or sets) of one arity known as
 * expressions while lowering: herd runs the rest of the model once per
 * value; here X is an SO variable equal to one of them (an existential
 * choice, so an execution is allowed when some value allows it). None
 * (n = 0) allows no execution. Other values stay unsupported. */
static bool with_from_choice(lower *L, const cat_ins *ins, env **en, const value *v)
{
    uint32_t arity = 0;
    for (uint32_t i = 0; i < v->n && !arity; i++)
        if (v->items[i]->k == V_REL)
            arity = v->items[i]->r->arity;
    logic_builder *b = L->b;
    const logic_rexpr *all = NULL;
    const logic_rexpr **rs = anew(L, (v->n ? v->n : 1) * sizeof *rs);
    for (uint32_t i = 0; i < v->n; i++) {
        const value *it = v->items[i];
        if ((it->k != V_REL && it->k != V_EMPTY && it->k != V_UNIV) || it->approx) {
            err(L, ins->loc, "unsupported: 'with %s from ...' over a set holding %s", ins->name,
                kind_name(it));
            return false;
        }
        if (!(rs[i] = as_rel(L, it, arity ? arity : 2, ins->loc, "each value of 'with ... from'")))
            return false;
        all = all ? logic_union(b, all, rs[i]) : rs[i];
    }
    if (v->n == 0) {
        base_vec_push(&L->parts, logic_false(b));
        *en = bind_value(L, *en, ins->name, mkval(L, V_EMPTY));
        return true;
    }
    logic_sovar *x = new_var(L, ins->name, all->arity);
    x->bound = all;
    x->bound_bits = may_eval(L, all, NULL, 0, 0);
    const logic_rexpr *xr = logic_r_sov(b, x);
    const logic_formula *one = logic_false(b);
    for (uint32_t i = 0; i < v->n; i++)
        one = logic_or2(b, one, logic_req(b, xr, rs[i]));
    base_vec_push(&L->parts, one);
    *en = bind_value(L, *en, ins->name, mkrel(L, xr, false));
    return true;
}

/* with X from E, X not co: E a set of values known while lowering (herd
 * enumerates the values): one value is X itself; several relations are a
 * choice (with_from_choice). */
static bool with_from_cases(lower *L, const cat_ins *ins, env **en, value *v);

static bool with_from_static(lower *L, const cat_ins *ins, env **en)
{
    bool was = L->casing;
    L->casing = true;
    L->dec.len = L->forced.len = 0;
    value *v = eval(L, ins->e, *en, EXACT);
    if (v && L->dec.len) {
        bool ok = with_from_cases(L, ins, en, v);
        L->casing = was;
        return ok;
    }
    L->casing = was;
    if (!v)
        return false;
    if (v->k == V_EMPTY || (v->k == V_VSET && v->n != 1)) {
        if (v->k == V_EMPTY)
            v = mkvset(L, NULL, 0);
        return with_from_choice(L, ins, en, v);
    }
    if (v->k != V_VSET || v->n != 1) {
        err(L, ins->loc, "unsupported: 'with %s from ...' over %s (only a set of one value "
            "known without the execution)", ins->name,
            v->k == V_VSET ? "several values" : kind_name(v));
        return false;
    }
    *en = bind_value(L, *en, ins->name, v->items[0]);
    return true;
}

/* with X from E where E took sets of the execution apart (match_split):
 * E evaluated once per case, v the first; X is one of the case's values
 * (none: no execution in that case). */
static bool with_from_cases(lower *L, const cat_ins *ins, env **en, value *v)
{
    logic_builder *b = L->b;
    BASE_VEC(const logic_formula *) guards = { 0 };
    BASE_VEC(value *) vals = { 0 };
    bool ok = true;
    for (;;) {
        const logic_formula *g = logic_true(b);
        for (size_t i = 0; i < L->dec.len; i++) {
            const struct decision *d = &L->dec.data[i];
            const logic_formula *lit = logic_apply(b, d->base, logic_const(d->t0),
                                                   logic_const(d->t1));
            g = logic_and2(b, g, d->val ? lit : logic_not(b, lit));
        }
        base_vec_push(&guards, g);
        base_vec_push(&vals, v);
        size_t i = L->dec.len; /* the next case: the last decision still false, true */
        while (i > 0 && L->dec.data[i - 1].val)
            i--;
        if (i == 0)
            break;
        if (guards.len == MAX_CASES) {
            err(L, ins->loc, "unsupported: 'with %s from ...' over more than %d cases",
                ins->name, MAX_CASES);
            ok = false;
            break;
        }
        L->forced.len = 0;
        for (size_t k = 0; k + 1 < i; k++)
            base_vec_push(&L->forced, L->dec.data[k].val);
        base_vec_push(&L->forced, true);
        L->dec.len = 0;
        if (!(v = eval(L, ins->e, *en, EXACT))) {
            ok = false;
            break;
        }
    }
    uint32_t arity = 0;
    for (size_t c = 0; ok && c < vals.len; c++) {
        value *cv = vals.data[c];
        if (cv->k == V_EMPTY)
            continue;
        if (cv->k != V_VSET) {
            err(L, ins->loc, "unsupported: 'with %s from ...' over %s", ins->name,
                kind_name(cv));
            ok = false;
        }
        for (uint32_t k = 0; ok && k < cv->n && !arity; k++) {
            value *it = elems_rel(L, cv->items[k]);
            if (it->k == V_REL)
                arity = it->r->arity;
        }
    }
    const logic_rexpr *all = logic_r_empty(b, arity ? arity : 2);
    const logic_formula **parts = anew(L, (vals.len ? vals.len : 1) * sizeof *parts);
    logic_sovar *x = NULL;
    if (ok) {
        x = new_var(L, ins->name, arity ? arity : 2);
        const logic_rexpr *xr = logic_r_sov(b, x);
        for (size_t c = 0; ok && c < vals.len; c++) {
            const value *cv = vals.data[c];
            const logic_formula *one = logic_false(b);
            for (uint32_t k = 0; ok && cv->k == V_VSET && k < cv->n; k++) {
                const value *it = cv->items[k];
                const logic_rexpr *r = it->approx ? NULL
                                                  : as_rel(L, it, arity ? arity : 2, ins->loc,
                                                           "each value of 'with ... from'");
                if (!r) {
                    if (it->approx)
                        err(L, ins->loc, "unsupported: 'with %s from ...' over %s", ins->name,
                            kind_name(it));
                    ok = false;
                    break;
                }
                all = logic_union(b, all, r);
                one = logic_or2(b, one, logic_req(b, xr, r));
            }
            parts[c] = logic_implies(b, guards.data[c], one);
        }
    }
    if (ok) {
        x->bound = all;
        x->bound_bits = may_eval(L, all, NULL, 0, 0);
        base_vec_push(&L->parts, logic_and(b, parts, (uint32_t)vals.len));
        *en = bind_value(L, *en, ins->name, mkrel(L, logic_r_sov(b, x), false));
    }
    L->dec.len = L->forced.len = 0;
    base_vec_free(&guards);
    base_vec_free(&vals);
    return ok;
}

static bool exec_list(lower *L, const cat_ins_list *list, env **en)
{
    for (uint32_t i = 0; i < list->n; i++)
        if (!exec_ins(L, list->v[i], en))
            return false;
    return true;
}

/* An annotation set of the test's events as a cat set. */
static value *annot_set(lower *L, const char *annot)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s%s", LOGIC_V_ANNOT_PREFIX, annot);
    return mkrel(L, logic_inter(L->b, logic_named(L->b, buf, 1), L->x), false);
}

/* The sets herd defines for RISC-V: the fences (an event annotated
 * Fence.r.rw is in the set Fence.r.rw) and the access annotations Acq,
 * Rel, AcqRel, Sc. X (exclusives) is in predefined(). */
static env *predefined_riscv(lower *L, env *en)
{
    static const char *const names[] = {
        "Fence.r.r", "Fence.r.w", "Fence.r.rw", "Fence.w.r", "Fence.w.w", "Fence.w.rw",
        "Fence.rw.r", "Fence.rw.w", "Fence.rw.rw", "Fence.tso", "Fence.i",
        "Acq", "Rel", "AcqRel", "Sc",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        en = bind_value(L, en, names[i], annot_set(L, names[i]));
    return en;
}

/* The names herd defines for AArch64 (with its catdep models), as far as
 * ravel's events have them: the barriers and the access annotations A, L,
 * Q, NoRet (annotation sets), Exp (every memory event: no implicit ones),
 * the register-level names of the ports (evstruct.h: Rreg, ADDR, DATA, BCC,
 * rf-reg, iico_data, iico_ctrl, same-instance), sm (one single-copy-atomic
 * access: the event itself, and an exclusive pair's two events) and, empty, what needs -variant (tags,
 * translation, faults, cache maintenance, exceptions). */
static env *predefined_aarch64(lower *L, env *en)
{
    logic_builder *b = L->b;
    static const char *const annots[] = {
        "A", "L", "Q", "NoRet", "ISB",
        "DMB.SY", "DMB.ST", "DMB.LD", "DMB.ISH", "DMB.ISHST", "DMB.ISHLD",
        "DMB.OSH", "DMB.OSHST", "DMB.OSHLD",
        "DSB.SY", "DSB.ST", "DSB.LD", "DSB.ISH", "DSB.ISHST", "DSB.ISHLD",
        "DSB.OSH", "DSB.OSHST", "DSB.OSHLD",
    };
    for (size_t i = 0; i < sizeof annots / sizeof annots[0]; i++)
        en = bind_value(L, en, annots[i], annot_set(L, annots[i]));
    static const char *const empty_sets[] = {
        "NExp", "T", "TLBI", "TLBInXS", "TLBIIS", "DC.CVAU", "IC.IALLUIS", "IC.IALLU",
        "IC.IVAU", "MMU", "FAULT", "TagCheck", "EXC-ENTRY", "EXC-RET", "SVC", "SPURIOUS",
        "Wreg",
    };
    for (size_t i = 0; i < sizeof empty_sets / sizeof empty_sets[0]; i++)
        en = bind_value(L, en, empty_sets[i], mkval(L, V_EMPTY));
    static const char *const sets[] = { "Rreg", "ADDR", "DATA", "BCC" };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        en = bind_value(L, en, sets[i], mkrel(L, logic_inter(b, logic_named(b, sets[i], 1), L->x),
                                              false));
    static const char *const rels[] = { "rf-reg", "iico_data", "iico_ctrl", "same-instance" };
    for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++)
        en = bind_value(L, en, rels[i],
                        mkrel(L, logic_restrict(b, L->x, logic_named(b, rels[i], 2), L->x), false));
    en = bind_value(L, en, "iico_order", mkrel(L, logic_r_empty(b, 2), false));
    en = bind_value(L, en, "same-low-order-bits", mkrel(L, logic_r_empty(b, 2), false));
    const logic_rexpr *mem = logic_inter(b, logic_named(b, LOGIC_V_MEM, 1), L->x);
    en = bind_value(L, en, "Exp", mkrel(L, mem, false));
    /* sm: one single-copy-atomic access; an exclusive pair's two events are
     * one (herd's para_atomic) */
    en = bind_value(L, en, "sm", mkrel(L, logic_union(b, logic_id(b, mem),
                                                      logic_restrict(b, mem, logic_named(b, LOGIC_V_SCA, 2), mem)),
                                       false));
    /* si (x86tso-mixed.cat): same instance, the byte events of one access
     * under -variant mixed; without it, as here, each access is one event */
    en = bind_value(L, en, "si", mkrel(L, logic_id(b, mem), false));
    return en;
}

/* herd's F: the fence events, not the located ones (lock and SRCU events) */
static const logic_rexpr *fences_of(lower *L)
{
    return logic_diff(L->b, logic_inter(L->b, logic_named(L->b, LOGIC_V_FENCE, 1), L->x),
                      logic_named(L->b, LOGIC_V_LOCATED, 1));
}

/* ravel's coherence order without herd's unlock events: herd generates co
 * over W (and lock.cat over LKW too) before it merges the UL events in,
 * next to their lock; ravel's co orders every write. */
static const logic_rexpr *co_of(lower *L)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%sUL", LOGIC_V_ANNOT_PREFIX);
    const logic_rexpr *ul = logic_named(L->b, buf, 1);
    if (ul->kind == LOGIC_R_EMPTY)
        return L->e->cor;
    const logic_rexpr *keep = logic_diff(L->b, L->x, ul);
    return logic_restrict(L->b, keep, L->e->cor, keep);
}

/* herd's predefined names, over the execution. */
static env *predefined(lower *L)
{
    logic_builder *b = L->b;
    const logic_exec *e = L->e;
    const logic_rexpr *x = L->x;
    env *en = NULL;
    static const char *const sets[] = { LOGIC_V_WRITE, LOGIC_V_READ, LOGIC_V_MEM, LOGIC_V_FENCE,
                                        LOGIC_V_INIT, LOGIC_V_RMWEV };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        en = bind_value(L, en, sets[i], mkrel(L, logic_inter(b, logic_named(b, sets[i], 1), x), false));
    static const char *const rels[] = { LOGIC_V_LOC, LOGIC_V_EXT, LOGIC_V_INT, LOGIC_V_RMW,
                                        LOGIC_V_ADDR, LOGIC_V_DATA, LOGIC_V_CTRL };
    for (size_t i = 0; i < sizeof rels / sizeof rels[0]; i++)
        en = bind_value(L, en, rels[i], mkrel(L, logic_restrict(b, x, logic_named(b, rels[i], 2), x),
                                              false));
    /* X86: the fences, and X, the events of locked instructions */
    static const struct { const char *name, *annot; } fences[] = {
        { "MFENCE", "mfence" }, { "LFENCE", "lfence" }, { "SFENCE", "sfence" },
    };
    for (size_t i = 0; i < sizeof fences / sizeof fences[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s%s", LOGIC_V_ANNOT_PREFIX, fences[i].annot);
        en = bind_value(L, en, fences[i].name, mkrel(L, logic_inter(b, logic_named(b, buf, 1), x), false));
    }
    /* X86's locked instructions; RISC-V's exclusives (annotated X) */
    en = bind_value(L, en, "X", mkrel(L, logic_inter(b, logic_union(b, logic_named(b, LOGIC_V_RMWEV, 1),
                                                                    logic_named(b, LOGIC_V_ANNOT_PREFIX "X", 1)),
                                                     x), false));
    en = predefined_riscv(L, en);
    en = predefined_aarch64(L, en);
    /* herd's lock events (C tests with -macros: litmus/c_parse.c): LKR, LF,
     * RL, RU are located fences, LKW and UL writes that herd keeps out of W
     * (lock.cat adds them) */
    static const char *const locks[] = { "LKR", "LKW", "UL", "LF", "RL", "RU" };
    const logic_rexpr *lockw = logic_r_empty(b, 1);
    for (size_t i = 0; i < sizeof locks / sizeof locks[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s%s", LOGIC_V_ANNOT_PREFIX, locks[i]);
        const logic_rexpr *set = logic_inter(b, logic_named(b, buf, 1), x);
        en = bind_value(L, en, locks[i], mkrel(L, set, false));
        if (i == 1 || i == 2)
            lockw = logic_union(b, lockw, set);
    }
    const logic_rexpr *Wb = logic_diff(b, logic_inter(b, logic_named(b, LOGIC_V_WRITE, 1), x), lockw);
    en = bind_value(L, en, LOGIC_V_WRITE, mkrel(L, Wb, false));
    en = bind_value(L, en, LOGIC_V_MEM, mkrel(L, logic_diff(b, logic_inter(b, logic_named(b, LOGIC_V_MEM, 1), x), lockw), false));
    en = bind_value(L, en, LOGIC_V_FENCE, mkrel(L, fences_of(L), false));
    const logic_rexpr *in = logic_named(b, LOGIC_V_INT, 2);
    const logic_rexpr *W = Wb;
    struct { const char *name; const logic_rexpr *r; } derived[] = {
        { "po", e->po },
        { "rf", e->rfr },
        { "co", co_of(L) },
        { "fr", e->fr },
        { "rfe", e->rfe },
        { "rfi", logic_inter(b, e->rfr, in) },
        { "coe", e->coe },
        { "coi", logic_inter(b, e->cor, in) },
        { "fre", e->fre },
        { "fri", logic_inter(b, e->fr, in) },
        { "po-loc", e->poloc },
        { "id", logic_id(b, x) },
        /* atomic instructions' rmw pairs (AArch64's SWP, LDADD, CAS) */
        { "amo", logic_restrict(b, logic_named(b, LOGIC_V_ANNOT_PREFIX "%amo", 1),
                                logic_restrict(b, x, logic_named(b, LOGIC_V_RMW, 2), x),
                                logic_named(b, LOGIC_V_ANNOT_PREFIX "%amo", 1)) },
        { "B", logic_r_empty(b, 1) },
        /* final writes: the last in coherence order */
        { "FW", logic_diff(b, W, domain_of(L, e->cor, false)) },
    };
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++)
        en = bind_value(L, en, derived[i].name, mkrel(L, derived[i].r, false));
    static const char *const prims[] = { "domain", "range", "classes-loc", "linearisations",
                                         "tag2scope", "tag2events", "fromto",
                                         "different-values", "same-oa", "partition",
                                         "as_transitive", "fail", "classes", "lift", "delift",
                                         "deliftinter", "bisimulation", "tag2level",
                                         "tag2fenced", "loc2events", "at-least-one-writable",
                                         "oa-changes" };
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
        value *p = mkval(L, V_PRIM);
        p->name = prims[i];
        en = bind_value(L, en, prims[i], p);
    }
    /* herd's inv-domain relates TLBI events (-variant vmsa) to the events
     * they invalidate: ravel's tests have no TLBI events */
    en = bind_value(L, en, "inv-domain", mkval(L, V_EMPTY));
    return predefined_scopes(L, en);
}

/* --- herd's other forms and primitives: forall, if, requires,
 * as_transitive, fail, classes-loc, linearisations --- */

/* Are a and b, values known without the execution, equal: 1 yes, 0 no,
 * -1 not known here (a relation of the execution, a function). */
static int static_cmp(const value *a, const value *b);

/* Is x in the set of values s: 1, 0, or -1 (not known). */
static int vset_has(const value *s, const value *x)
{
    int r = 0;
    for (uint32_t i = 0; s->k == V_VSET && i < s->n && r != 1; i++) {
        int c = static_cmp(s->items[i], x);
        r = c == 1 ? 1 : c < 0 ? -1 : r;
    }
    return r;
}

/* Is every value of a in b (sets of values or {}): 1, 0, or -1. */
static int vset_subset(const value *a, const value *b)
{
    if (static_empty(a))
        return 1;
    if (a->k != V_VSET || (b->k != V_VSET && !static_empty(b)))
        return -1;
    int r = 1;
    for (uint32_t i = 0; i < a->n && r != 0; i++) {
        int c = b->k == V_VSET ? vset_has(b, a->items[i]) : 0;
        r = c == 0 ? 0 : c < 0 ? -1 : r;
    }
    return r;
}

static int static_cmp(const value *a, const value *b)
{
    if (a->k == V_TAG && b->k == V_TAG)
        return strcmp(a->name, b->name) == 0;
    if (static_empty(a) && static_empty(b))
        return 1;
    if ((a->k == V_VSET || static_empty(a)) && (b->k == V_VSET || static_empty(b))) {
        int x = vset_subset(a, b), y = x == 1 ? vset_subset(b, a) : x;
        return x < 0 || y < 0 ? -1 : x && y;
    }
    if (a->k == V_TUPLE && b->k == V_TUPLE) {
        if (a->n != b->n)
            return 0;
        int r = 1;
        for (uint32_t i = 0; i < a->n && r == 1; i++)
            r = static_cmp(a->items[i], b->items[i]);
        return r;
    }
    if ((a->k == V_TAG && (b->k == V_VSET || b->k == V_TUPLE)) ||
        (b->k == V_TAG && (a->k == V_VSET || a->k == V_TUPLE)))
        return 0;
    return -1;
}

/* x where cond holds, y where it does not: a set variable g that is every
 * event when cond holds and none otherwise guards each side, so the result
 * is exact (cond must be). */
static value *select_by(lower *L, base_srcloc loc, const char *what, const logic_formula *cond,
                        value *x, value *y)
{
    if (x->k == y->k && (x->k == V_EMPTY || x->k == V_UNIV))
        return x;
    uint32_t arity = x->k == V_REL ? x->r->arity : y->k == V_REL ? y->r->arity : 0;
    if (!arity)
        return err(L, loc, "unsupported: 'if' on what depends on the execution, giving %s",
                   kind_name(is_relational(x) ? y : x));
    const logic_rexpr *rx = as_rel(L, x, arity, loc, what);
    const logic_rexpr *ry = rx ? as_rel(L, y, arity, loc, what) : NULL;
    if (!ry)
        return NULL;
    logic_builder *b = L->b;
    logic_sovar *g = new_var(L, "select", 1);
    g->bound = L->x;
    const logic_rexpr *gr = logic_r_sov(b, g), *ng = logic_diff(b, L->x, gr);
    base_vec_push(&L->parts, logic_and2(b, logic_implies(b, cond, logic_req(b, gr, L->x)),
                                        logic_implies(b, logic_not(b, cond), logic_empty(b, gr))));
    if (arity == 2) {
        gr = logic_prod(b, gr, gr);
        ng = logic_prod(b, ng, ng);
    }
    return mkrel(L, logic_union(b, logic_inter(b, rx, gr), logic_inter(b, ry, ng)),
                 x->approx || y->approx);
}

/* if e1 = e2 | e1 subset e2 | e1 in e2 then a else b: decided while
 * lowering on values known without the execution (tags, sets of values),
 * else a formula over the execution choosing between the branches. */
static value *eval_if(lower *L, const cat_expr *ex, env *en, int mode)
{
    value *a = eval(L, ex->items[0], en, EXACT);
    value *b = a ? eval(L, ex->items[1], en, EXACT) : NULL;
    if (!b)
        return NULL;
    bool in = strcmp(ex->op, "in") == 0, sub = strcmp(ex->op, "subset") == 0;
    int known = -1;
    const logic_formula *cond = NULL;
    if (!is_relational(a) || !is_relational(b) || (static_empty(a) && static_empty(b))) {
        known = in    ? (b->k == V_TAG ? static_cmp(a, b) : static_empty(b) ? 0 : vset_has(b, a))
                : sub ? vset_subset(a, b)
                      : static_cmp(a, b);
        if (in && b->k != V_VSET && b->k != V_TAG && !static_empty(b))
            known = -1;
        if (known < 0)
            return err(L, ex->loc, "unsupported: 'if ... %s ...' on %s and %s", ex->op,
                       kind_name(a), kind_name(b));
    } else if (in) {
        return err(L, ex->loc, "unsupported: 'if ... in ...' on %s (ravel's cat has no single "
                   "events)", kind_name(b));
    } else {
        uint32_t ar = a->k == V_REL ? a->r->arity : b->k == V_REL ? b->r->arity : 2;
        const logic_rexpr *ra = as_rel(L, a, ar, ex->loc, ex->op);
        const logic_rexpr *rb = ra ? as_rel(L, b, ar, ex->loc, ex->op) : NULL;
        if (!rb)
            return NULL;
        cond = sub ? logic_sub(L->b, ra, rb) : logic_req(L->b, ra, rb);
    }
    if (known >= 0)
        return eval(L, known ? ex->a : ex->b, en, mode);
    value *x = eval(L, ex->a, en, mode);
    value *y = x ? eval(L, ex->b, en, mode) : NULL;
    return y ? select_by(L, ex->loc, "each branch of 'if'", cond, x, y) : NULL;
}

/* requires CHECK: herd flags the execution undefined when the check fails
 * (it does not filter): a flag named as logic/mm.h's undefined flag. */
static bool requires_check(lower *L, const cat_ins *ins, env *en)
{
    value *v = eval(L, ins->e, en, EXACT);
    const logic_formula *f = v ? test_formula(L, ins, v, EXACT) : NULL;
    if (!f)
        return false;
    if (ins->negated)
        f = logic_not(L->b, f);
    logic_mm_flag fl = { LOGIC_MM_FLAG_UNDEF, logic_not(L->b, f) };
    base_vec_push(&L->flags, fl);
    return true;
}

/* forall x in e do body end: the body once per value of e, a set of values
 * known without the execution (a tag is the set of itself, as in herd); what
 * the body binds does not outlive it. */
static bool exec_forall(lower *L, const cat_ins *ins, env *en)
{
    value *v = eval(L, ins->e, en, EXACT);
    if (!v)
        return false;
    if (v->k == V_EMPTY || (v->k == V_VSET && v->n == 0))
        return true;
    value *const *items = &v;
    uint32_t n = 1;
    if (v->k == V_VSET) {
        items = v->items;
        n = v->n;
    } else if (v->k != V_TAG) {
        err(L, ins->e->loc, "unsupported: 'forall' over %s (only over a set of values known "
            "without the execution)", kind_name(v));
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        env *ne = bind_value(L, en, ins->name, items[i]);
        if (!exec_list(L, &ins->body, &ne))
            return false;
    }
    return true;
}

/* classes-loc(S) (stdlib's partition): S split by location, a set of
 * sets. Exact when each class holds an initial write in every execution
 * (as with W): herd leaves out a class that is empty in an execution, which
 * a fixed list of classes cannot do, so other sets are refused. */
static value *classes_loc(lower *L, const value *v, base_srcloc loc)
{
    if (static_empty(v))
        return mkvset(L, NULL, 0);
    const logic_rexpr *S = as_rel(L, v, 1, loc, "classes-loc");
    if (!S)
        return NULL;
    logic_builder *b = L->b;
    const logic_rexpr *locr = logic_named(b, LOGIC_V_LOC, 2);
    const logic_rexpr *init = logic_named(b, LOGIC_V_INIT, 1);
    if (locr->kind != LOGIC_R_REL)
        return mkvset(L, NULL, 0);
    uint32_t n = b->st->n;
    size_t w = may_words(L);
    const uint64_t *lb = may_eval(L, locr, NULL, 0, 0);
    const uint64_t *ib = may_eval(L, init, NULL, 0, 0);
    const uint64_t *may = may_eval(L, S, NULL, 0, 0), *must = cmust_eval(L, S, 0);
    value **items = anew(L, (n ? n : 1) * sizeof *items);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        bool first = may_get(lb, w, i, i);
        for (uint32_t j = 0; j < i && first; j++)
            first = !may_get(lb, w, i, j);
        if (!first)
            continue; /* no location, or not its class's first event */
        bool some = false, always = false;
        for (uint32_t j = 0; j < n; j++)
            if (may_get(lb, w, i, j)) {
                some |= may_get(may, w, 0, j);
                always |= may_get(ib, w, 0, j) && may_get(must, w, 0, j);
            }
        if (!some)
            continue; /* empty in every execution: herd has no such class */
        if (!always)
            return err(L, loc, "unsupported: 'classes-loc' of a set whose class of a location "
                       "may be empty in an execution (herd leaves such a class out)");
        int32_t x = logic_fresh_var(b);
        const logic_rexpr *cls = logic_r_formula(b, 1, x, 0,
                                                 logic_apply(b, locr, x, logic_const(i)));
        items[k++] = mkrel(L, logic_inter(b, S, cls), v->approx);
    }
    value *parts = mkvset(L, items, k);
    parts->parts = true;
    return parts;
}

/* herd's primitives beyond domain and range. Returns whether f is one of
 * them (its value, or NULL after an error, in *out). */
static bool apply_more(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                       base_srcloc loc, value **out)
{
    const char *name = f->name;
    if (strcmp(name, "fail") == 0) {
        /* herd stops evaluating (a try falls back to its other branch) */
        *out = err(L, loc, "herd's primitive 'fail' was called");
        return true;
    }
    bool trans = strcmp(name, "as_transitive") == 0;
    bool classes = strcmp(name, "classes-loc") == 0 || strcmp(name, "partition") == 0;
    bool lins = strcmp(name, "linearisations") == 0;
    if (!trans && !classes && !lins)
        return false;
    value *v = eval(L, arg, argenv, trans ? mode : EXACT);
    *out = NULL;
    if (!v)
        return true;
    if (classes) {
        *out = classes_loc(L, v, loc);
    } else if (trans) {
        /* r, used as its transitive closure (herd's implicitly transitive
         * relations) */
        const logic_rexpr *r = v->k == V_EMPTY ? NULL : as_rel(L, v, 2, loc, name);
        *out = v->k == V_EMPTY ? v : r ? plus(L, r, mode, v->approx) : NULL;
    } else if (v->k != V_TUPLE || v->n != 2) {
        *out = err(L, loc, "linearisations takes a set and a relation, not %s", kind_name(v));
    } else {
        /* the strict total orders of S that contain r on S: a symbolic set,
         * taken apart by `with x from` (with_from_orders) */
        value *o = mkval(L, V_ORDERS);
        o->items = v->items;
        o->n = 2;
        *out = o;
    }
    return true;
}

/* with x from linearisations(S, r): x a relation variable constrained to
 * be one of them — a strict total order of S (nothing outside S * S) that
 * contains r on S; none when r is cyclic on S, as in herd (no execution).
 * Returns false, having done nothing, when E is not such a set. */
static bool with_from_orders(lower *L, const cat_ins *ins, env **en, bool *ok)
{
    L->quiet++;
    value *v = eval(L, ins->e, *en, EXACT);
    L->quiet--;
    if (!v || v->k != V_ORDERS)
        return false;
    *ok = false;
    const logic_rexpr *S = as_rel(L, v->items[0], 1, ins->loc, "linearisations");
    const logic_rexpr *r = S ? as_rel(L, v->items[1], 2, ins->loc, "linearisations") : NULL;
    if (!r)
        return true;
    logic_builder *b = L->b;
    const logic_rexpr *ss = logic_prod(b, S, S);
    logic_sovar *x = new_var(L, ins->name, 2);
    x->bound = ss;
    const logic_rexpr *xr = logic_r_sov(b, x);
    base_vec_push(&L->parts, logic_sub(b, xr, ss));
    base_vec_push(&L->parts, logic_total_on(b, xr, S, logic_r_all(b, 2)));
    base_vec_push(&L->parts, logic_sub(b, logic_inter(b, r, ss), xr));
    *en = bind_value(L, *en, ins->name, mkrel(L, xr, false));
    *ok = true;
    return true;
}

/* --- pruning: the definitions nothing kept uses --- */

/* A variable whose only constraints are its definitions (push_def: r <= w,
 * a closure, a prefixpoint; or an inlined def) can take a value that
 * satisfies them whatever the other variables are (the least one, within
 * its bounds); so a variable that no check, flag, or kept variable's
 * bound, definition or constraint mentions is dropped with its
 * definitions, which leaves the formula equisatisfiable with the same
 * answers. (A model's data-race section, say, when the test has no plain
 * access, so that the checks built on it are empty.) */
typedef struct reach {
    base_hashmap seen;  /* formula and rexpr nodes visited */
    bool *live;         /* SO variable id -> reached */
    uint32_t nlive;
    BASE_VEC(const logic_sovar *) work;
} reach;

static bool reach_first(reach *R, const void *p)
{
    uint64_t k = (uint64_t)(uintptr_t)p, v;
    if (base_hashmap_get(&R->seen, k, &v))
        return false;
    base_hashmap_put(&R->seen, k, 1);
    return true;
}

static void reach_v(reach *R, const logic_sovar *v)
{
    if (v && v->id < R->nlive && !R->live[v->id]) {
        R->live[v->id] = true;
        base_vec_push(&R->work, v);
    }
}

static void reach_f(reach *R, const logic_formula *f);

static void reach_r(reach *R, const logic_rexpr *r)
{
    while (r && reach_first(R, r)) {
        if (r->kind == LOGIC_R_SOV)
            reach_v(R, r->sov);
        if (r->kind == LOGIC_R_FORMULA)
            reach_f(R, r->body);
        if (r->b)
            reach_r(R, r->b);
        r = r->a;
    }
}

static void reach_f(reach *R, const logic_formula *f)
{
    if (!f || !reach_first(R, f))
        return;
    switch (f->kind) {
    case LOGIC_SOV:
    case LOGIC_SOV_MAY:
    case LOGIC_SO_EXISTS:
    case LOGIC_SO_FORALL:
        reach_v(R, f->sov);
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < f->nkids; i++)
        reach_f(R, f->kids[i]);
}

static void prune(lower *L)
{
    uint32_t nsov = L->b->nsov;
    reach R;
    memset(&R, 0, sizeof R);
    base_hashmap_init(&R.seen);
    R.live = base_xcalloc(nsov ? nsov : 1, sizeof *R.live);
    R.nlive = nsov;
    while (L->owner.len < L->parts.len)
        base_vec_push(&L->owner, NULL);
    /* the parts each variable owns: first[id], chained by next[part] */
    size_t np = L->parts.len;
    size_t *first = base_xmalloc((nsov ? nsov : 1) * sizeof *first);
    size_t *next = base_xmalloc((np ? np : 1) * sizeof *next);
    for (uint32_t i = 0; i < nsov; i++)
        first[i] = SIZE_MAX;
    for (size_t i = np; i-- > 0;) {
        const logic_sovar *w = L->owner.data[i];
        if (!w) {
            reach_f(&R, L->parts.data[i]);
        } else if (w->id < nsov) {
            next[i] = first[w->id];
            first[w->id] = i;
        }
    }
    for (size_t i = 0; i < L->flags.len; i++) {
        reach_f(&R, L->flags.data[i].f);
    }
    while (R.work.len) {
        const logic_sovar *v = R.work.data[--R.work.len];
        reach_r(&R, v->bound);
        reach_r(&R, v->exclude);
        reach_r(&R, v->def);
        for (size_t i = first[v->id]; i != SIZE_MAX; i = next[i])
            reach_f(&R, L->parts.data[i]);
    }
    size_t k = 0;
    for (size_t i = 0; i < np; i++) {
        const logic_sovar *w = L->owner.data[i];
        if (!w || (w->id < nsov && R.live[w->id]))
            L->parts.data[k++] = L->parts.data[i];
    }
    L->parts.len = k;
    k = 0;
    for (size_t i = 0; i < L->vars.len; i++)
        if (L->vars.data[i]->id >= nsov || R.live[L->vars.data[i]->id])
            L->vars.data[k++] = L->vars.data[i];
    L->vars.len = k;
    free(first);
    free(next);
    free(R.live);
    base_vec_free(&R.work);
    base_hashmap_free(&R.seen);
}

const logic_formula *cat_lower(const cat_ins_list *prog, logic_builder *b, const logic_exec *e,
                               const logic_mm_flag **flags, uint32_t *nflags, base_diag *diag)
{
    lower L;
    memset(&L, 0, sizeof L);
    L.b = b;
    L.e = e;
    L.diag = diag;
    L.x = e->x;
    env *en = predefined(&L);
    bool ok = exec_list(&L, prog, &en);
    const logic_formula *f = NULL;
    if (ok) {
        prune(&L);
        f = logic_and(b, L.parts.data, (uint32_t)L.parts.len);
        for (size_t i = L.vars.len; i-- > 0;)
            f = logic_so_exists(b, L.vars.data[i], f);
        logic_mm_flag *fl = BASE_ARENA_ARRAY(&b->arena, logic_mm_flag, L.flags.len ? L.flags.len : 1);
        for (size_t i = 0; i < L.flags.len; i++)
            fl[i] = L.flags.data[i];
        *flags = fl;
        *nflags = (uint32_t)L.flags.len;
    } else if (!base_diag_has_errors(diag)) {
        base_diag_error(diag, base_srcloc_make("<cat>", 0, 0), "the model could not be lowered");
    }
    base_vec_free(&L.vars);
    base_vec_free(&L.parts);
    base_vec_free(&L.owner);
    base_vec_free(&L.flags);
    base_vec_free(&L.cmust_memo);
    base_vec_free(&L.dec);
    base_vec_free(&L.forced);
    base_vec_free(&L.consts);
    return f;
}

/* --- herd's scope trees: tag2scope, tag2level --- */

/* The scope relation of level NAME (litmus/encode.c: "scope:NAME"): the
 * pairs of events whose threads are in one instance of NAME. */
static const logic_rexpr *scope_rel(lower *L, const char *name)
{
    char buf[128];
    snprintf(buf, sizeof buf, "scope:%s", name);
    if (logic_structure_find(L->b->st, buf) < 0)
        return NULL;
    return logic_restrict(L->b, L->x, logic_named(L->b, buf, 2), L->x);
}

/* As herd binds them, each level of the test's scope tree names its
 * relation (a model's own definitions shadow these). */
static env *predefined_scopes(lower *L, env *en)
{
    const logic_structure *st = L->b->st;
    for (uint32_t i = 0; i < st->nrels; i++) {
        const char *nm = st->rels[i].name;
        if (st->rels[i].arity == 2 && strncmp(nm, "scope:", 6) == 0)
            en = bind_value(L, en, nm + 6, mkrel(L, scope_rel(L, nm + 6), false));
    }
    return en;
}

/* tag2scope('t) and tag2level('t) (herd looks both up among the scope
 * relations): the relation of level t of the test's scope tree. A test
 * without a tree, or whose tree lacks the level, is an error, as in herd
 * ("cannot find scope instance"). */
static bool apply_scope(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                        base_srcloc loc, value **out)
{
    const char *name = f->name;
    if (strcmp(name, "tag2scope") != 0 && strcmp(name, "tag2level") != 0)
        return false;
    *out = NULL;
    value *v = eval(L, arg, argenv, mode);
    if (!v)
        return true;
    if (v->k != V_TAG) {
        *out = err(L, loc, "%s of %s (it takes a tag, 'name)", name, kind_name(v));
        return true;
    }
    const logic_structure *st = L->b->st;
    if (logic_structure_find(st, LOGIC_V_PO) < 0) {
        /* the model's check at load time (cat/model.c), without a test */
        *out = mkval(L, V_EMPTY);
        return true;
    }
    if (logic_structure_find(st, "scopes:bad") >= 0) {
        *out = err(L, loc, "unsupported: %s('%s) on a test whose `scopes:` section is not a "
                   "scope tree ravel reads ((NAME P0 ... (NAME ...) ...))", name, v->name);
        return true;
    }
    const logic_rexpr *r = scope_rel(L, v->name);
    if (!r) {
        *out = err(L, loc, "%s('%s): the test's scope tree has no level '%s'%s", name, v->name,
                   v->name, logic_structure_find(st, "scopes:tree") < 0
                                ? " (the test has no `scopes:` section)" : "");
        return true;
    }
    *out = mkrel(L, r, false);
    return true;
}

/* --- herd's classes, lift, delift, deliftinter, loc2events, tag2fenced ---
 *
 * herd's classes(r) is the set of the connected components of r (its
 * direction ignored) over the events r relates; lift(C, r) the relation
 * between classes that r relates some members of; delift the union of the
 * products of related classes. A set of classes is kept as its
 * equivalence E ("in one class": reflexive on the members), a class
 * relation as the event relation it delifts to, E; r; E. That encoding is
 * closed under herd's operations on class relations (union, intersection,
 * difference, sequence, closures, inverse) and an acyclic, irreflexive or
 * empty check holds of it exactly when it holds of the class relation. */

/* The equivalence of a set of sets that are pairwise disjoint in every
 * execution (classes-loc's), or NULL after an error. */
static const logic_rexpr *vset_equiv(lower *L, const value *v, base_srcloc loc, const char *what)
{
    logic_builder *b = L->b;
    const logic_rexpr *e = logic_r_empty(b, 2);
    uint64_t *seen = may_new(L, 1, false);
    size_t w = may_words(L);
    for (uint32_t i = 0; i < v->n; i++) {
        if (static_empty(v->items[i]))
            continue;
        const logic_rexpr *s = as_rel(L, v->items[i], 1, loc, what);
        if (!s)
            return NULL;
        e = logic_union(b, e, logic_prod(b, s, s));
        if (v->parts)
            continue;
        const uint64_t *m = may_eval(L, s, NULL, 0, 0);
        for (size_t k = 0; k < w; k++) {
            if (seen[k] & m[k])
                return err(L, loc, "unsupported: %s of sets that may overlap (herd puts an event "
                           "in one of them)", what), NULL;
            seen[k] |= m[k];
        }
    }
    return e;
}

/* The equivalence of a set of classes, or NULL after an error. */
static const logic_rexpr *classes_equiv(lower *L, const value *v, base_srcloc loc, const char *what)
{
    if (v->k == V_CLASSES)
        return v->r;
    if (static_empty(v))
        return logic_r_empty(L->b, 2);
    if (v->k == V_VSET)
        return vset_equiv(L, v, loc, what);
    err(L, loc, "%s needs a set of classes (classes(r) or classes-loc(S)), not %s", what,
        kind_name(v));
    return NULL;
}

/* The two items of a pair argument, or false after an error. */
static bool pair_arg(lower *L, value *v, base_srcloc loc, const char *what, value **a, value **b2)
{
    if (v->k != V_TUPLE || v->n != 2) {
        err(L, loc, "%s takes two arguments, not %s", what, kind_name(v));
        return false;
    }
    *a = v->items[0];
    *b2 = v->items[1];
    return true;
}

/* herd's bisimulation(T, E0): the greatest E within E0 whose pairs (x, y)
 * are x = y or match each T-step of one with a T-step of the other into E
 * (herd refines E0 until nothing changes). Kleene iteration from E0
 * downward, each round an SO variable defined by <->; every round that
 * changes drops a pair, so as many rounds as E0 may hold pairs reach the
 * fixpoint. Exact, and large on big tests. On class relations (lift) the
 * same: the classes' members move alike. */
static value *bisimulation(lower *L, const cat_expr *arg, env *argenv, base_srcloc loc)
{
    value *v = eval(L, arg, argenv, EXACT), *tv, *ev;
    if (!v || !pair_arg(L, v, loc, "bisimulation", &tv, &ev))
        return NULL;
    if (static_empty(ev))
        return mkval(L, V_EMPTY);
    const logic_rexpr *t = as_rel(L, tv, 2, loc, "bisimulation");
    const logic_rexpr *e0 = t ? as_rel(L, ev, 2, loc, "bisimulation") : NULL;
    if (!e0)
        return NULL;
    logic_builder *b = L->b;
    uint64_t rounds = may_count(L, may_eval(L, e0, NULL, 0, 0), 2);
    const logic_rexpr *cur = e0;
    for (uint64_t k = 0; k < rounds; k++) {
        int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
        int32_t x1 = logic_fresh_var(b), y1 = logic_fresh_var(b);
        int32_t x2 = logic_fresh_var(b), y2 = logic_fresh_var(b);
        const logic_formula *forth = logic_forall(
            b, x1, logic_implies(b, logic_apply(b, t, x, x1),
                                 logic_exists(b, y1, logic_and2(b, logic_apply(b, t, y, y1),
                                                                logic_apply(b, cur, y1, x1)))));
        const logic_formula *back = logic_forall(
            b, y2, logic_implies(b, logic_apply(b, t, y, y2),
                                 logic_exists(b, x2, logic_and2(b, logic_apply(b, t, x, x2),
                                                                logic_apply(b, cur, x2, y2)))));
        const logic_formula *body = logic_and2(
            b, logic_apply(b, cur, x, y), logic_or2(b, logic_eq(b, x, y), logic_and2(b, forth, back)));
        const logic_rexpr *step = logic_r_formula(b, 2, x, y, body);
        logic_sovar *sv = new_var(L, "bisim", 2);
        sv->bound = e0;
        const logic_rexpr *next = logic_r_sov(b, sv);
        base_vec_push(&L->parts, logic_and2(b, logic_sub(b, next, step), logic_sub_split(b, step, next)));
        cur = next;
    }
    return mkrel(L, cur, false);
}

static bool apply_classes(lower *L, const value *f, const cat_expr *arg, env *argenv, int mode,
                          base_srcloc loc, value **out)
{
    const char *name = f->name;
    logic_builder *b = L->b;
    bool cls = strcmp(name, "classes") == 0, lift = strcmp(name, "lift") == 0;
    bool delift = strcmp(name, "delift") == 0, inter = strcmp(name, "deliftinter") == 0;
    bool locev = strcmp(name, "loc2events") == 0, fenced = strcmp(name, "tag2fenced") == 0;
    if (strcmp(name, "bisimulation") == 0) {
        *out = bisimulation(L, arg, argenv, loc);
        return true;
    }
    if (!cls && !lift && !delift && !inter && !locev && !fenced)
        return false;
    *out = NULL;
    /* classes: exact (E is used on both sides of what is built on it) */
    value *v = eval(L, arg, argenv, cls ? EXACT : mode);
    if (!v)
        return true;
    if (locev || fenced) {
        if (v->k != V_TAG) {
            *out = err(L, loc, "%s of %s (it takes a tag, 'name)", name, kind_name(v));
            return true;
        }
        if (locev) {
            /* the events on the location named by the tag */
            char buf[128];
            snprintf(buf, sizeof buf, "locname:%s", v->name);
            *out = mkrel(L, logic_inter(b, logic_named(b, buf, 1), L->x), false);
        } else {
            /* the pairs of herd's fromto (po; [F]; po here: no labels)
             * with an event of the tag between them in po */
            const logic_rexpr *t = annot_set(L, v->name)->r;
            const logic_rexpr *po = L->e->po;
            *out = mkrel(L, logic_inter(b, logic_seq(b, logic_seq(b, po, logic_id(b, fences_of(L))), po),
                                        logic_seq(b, logic_seq(b, po, logic_id(b, t)), po)),
                         false);
        }
        return true;
    }
    if (cls) {
        if (static_empty(v)) {
            *out = mkvset(L, NULL, 0);
            return true;
        }
        const logic_rexpr *r = as_rel(L, v, 2, loc, name);
        if (!r)
            return true;
        value *c = mkval(L, V_CLASSES);
        c->r = plus_exact(L, logic_union(b, r, logic_inv(b, r)));
        *out = c;
        return true;
    }
    if (delift) {
        /* a class relation is kept delifted already */
        *out = is_relational(v) ? v : err(L, loc, "delift of %s", kind_name(v));
        return true;
    }
    value *a, *c;
    if (!pair_arg(L, v, loc, name, &a, &c))
        return true;
    if (lift) {
        const logic_rexpr *e = classes_equiv(L, a, loc, name);
        if (!e)
            return true;
        if (static_empty(c)) {
            *out = mkval(L, V_EMPTY);
            return true;
        }
        const logic_rexpr *r = as_rel(L, c, 2, loc, name);
        if (r)
            *out = mkrel(L, logic_seq(b, logic_seq(b, e, r), e), c->approx);
        return true;
    }
    /* deliftinter(m, C): the pairs of m between related classes */
    if (static_empty(a) || static_empty(c)) {
        *out = mkval(L, V_EMPTY);
        return true;
    }
    const logic_rexpr *m = as_rel(L, a, 2, loc, name), *r = m ? as_rel(L, c, 2, loc, name) : NULL;
    if (r)
        *out = mkrel(L, logic_inter(b, m, r), a->approx || c->approx);
    return true;
}

/* Is e written as linearisations(...)? */
static bool names_linearisations(const cat_expr *e)
{
    return e->kind == CAT_E_APP && e->a && e->a->kind == CAT_E_VAR &&
           strcmp(e->a->name, "linearisations") == 0;
}
