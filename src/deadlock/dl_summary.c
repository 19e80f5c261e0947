/* dl_summary: per-function summaries (L2D2's Algorithms 1-3) computed
 * bottom-up over the call graph.
 *
 * The call graph's strongly connected components are taken callees first;
 * a component with a cycle is re-analysed until its summaries stop
 * changing (or max_scc_iters rounds). Each analysis is a forward dataflow
 * over the goto program to a fixpoint (recording nothing), then one pass
 * over the fixed in-states that records the summary's effects (deps,
 * acquisitions, self-deadlocks, thread starts), so effects never come from
 * intermediate states.
 *
 * The state at a statement: the locks held (may, each with the trace of
 * its acquisition; and must), the locks released since entry (may, must),
 * what each pointer-valued local may hold (a set of at most
 * DL_MAX_ENV_VALUES values; absent: itself), the lock results of lock and
 * trylock statements and of functions returning the lock they took or NULL
 * (a failed branch drops the lock), the threads started and not joined, the
 * thread handles joined on every path, and the comparisons true on every
 * path (condition atoms, for locks ordered by value).
 *
 * Guards that are constant (after substituting constant arguments) prune
 * the branch not taken; a callee that branches on a parameter gets a summary
 * specialised to a call's constant arguments (cached, outside the current
 * component only). Calls through pointers reach the functions the pointer
 * may hold, else the statement's candidates whose type fits the call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "deadlock/dl_store.h"
#include "deadlock/dl_internal.h"
#include "deadlock/dl_scc.h"

typedef struct kv { uint32_t k, v; } kv;
#define TRY_NONNULL 0x80000000u
#define CH_MUST 0x80000000u
typedef BASE_VEC(kv) kv_vec;

typedef struct dl_state {
    bool reached;
    kv_vec held;       /* lock mode -> trace, sorted by lock mode */
    uint32_t held_must;/* set of lock modes */
    uint32_t rel_may, rel_must;
    kv_vec env;        /* var key -> set of values, sorted by key */
    kv_vec tryres;     /* var key -> set of lock modes taken by the statement that set it;
                          the result is 0 when they were taken, or, with
                          TRY_NONNULL in the set id, nonzero (a lock pointer) */
    uint32_t live;     /* set of instances */
    uint32_t conds;    /* set of condition atoms true on every path here */
    uint32_t joined;   /* set of handle paths joined on every path since entry */
    kv_vec condheld;   /* lock mode -> atom: the lock may be held only where the atom
                          holds (a branch on the atom's negation drops it); with
                          CH_MUST in the value, it is also held wherever the atom
                          holds (a branch on the atom makes it must-held: the guard
                          of a scoped-lock `for` macro) */
    kv_vec retcases;   /* var key -> set of return cases (c->cases_t ids) of the call
                          that set it: a branch on the value keeps the cases it allows */
    kv_vec predv;      /* var key -> atom: the variable holds the result of a call of a
                          predicate (a function that only returns the truth of a read,
                          `return io->threaded;`), so a branch on it is a branch on that
                          read (atom TRUE(read) or its negation, in this namespace) */
    kv_vec since;      /* instance -> set of locks held (write, on every path) when it
                          was started and held ever since */
    kv_vec opq;        /* lock mode -> atom TRUE(&f): the lock was passed to f, which
                          has no body, and is assumed still held (dependencies from it
                          carry the atom, so the finding can say so) */
} dl_state;

typedef struct fn_an {
    dl_ctx *c;
    const ir_func *f;
    uint32_t fi;
    bool record;
    dl_summary *sum;      /* being built */
    base_hashmap dep_ix, acq_ix, self_ix, spawn_ix;
    bool ret_unknown;
    bool ret_has_null;
    uint32_t ret;         /* set of values */
    const bool *pknown;   /* specialisation: parameter i is the constant pconst[i] */
    const int64_t *pconst;
    const dl_state *ins;  /* the in-states of the dataflow (fixed while recording) */
    bool rc_bad;          /* a return that is not a constant, or too many values */
    uint32_t nrc;         /* return cases so far */
    int64_t rc_val[DL_MAX_RET_CASES];
    uint32_t rc_held[DL_MAX_RET_CASES];
    const uint8_t *loop_self; /* per statement: a lock taken again by the next iteration */
    bool merge_par;       /* the widening: dependencies differing in threads only are one */
    uint32_t tested;      /* set of var keys whose truth a branch tests */
    const dl_bind *binds; /* specialisation: calls through parameters' objects */
    uint32_t nbinds;
} fn_an;

static void analyse_into(dl_ctx *c, const ir_func *f, const bool *pknown, const int64_t *pconst,
                         const dl_bind *binds, uint32_t nbinds, dl_summary *out);
static bool const_eval(const fn_an *a, const ir_expr *e, int64_t *out, int depth);
static bool widen_summary(fn_an *a, dl_summary *ns);

/* --- small helpers --- */

static int kv_find(const kv_vec *v, uint32_t k)
{
    size_t lo = 0, hi = v->len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v->data[mid].k == k)
            return (int)mid;
        if (v->data[mid].k < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(int)lo - 1;
}

static void kv_put(kv_vec *v, uint32_t k, uint32_t val)
{
    int i = kv_find(v, k);
    if (i >= 0) {
        v->data[i].v = val;
        return;
    }
    size_t at = (size_t)(-i - 1);
    base_vec_push(v, ((kv){ 0, 0 }));
    memmove(&v->data[at + 1], &v->data[at], (v->len - 1 - at) * sizeof *v->data);
    v->data[at] = (kv){ k, val };
}

static void kv_del(kv_vec *v, uint32_t k)
{
    int i = kv_find(v, k);
    if (i < 0)
        return;
    memmove(&v->data[i], &v->data[i + 1], (v->len - (size_t)i - 1) * sizeof *v->data);
    v->len--;
}

static int kv_cmp(const void *x, const void *y)
{
    const kv *a = x, *b = y;
    return a->k != b->k ? (a->k < b->k ? -1 : 1) : (a->v < b->v ? -1 : a->v > b->v);
}

static void kv_copy(kv_vec *dst, const kv_vec *src)
{
    dst->len = 0;
    base_vec_reserve(dst, src->len);
    if (src->len)
        memcpy(dst->data, src->data, src->len * sizeof *src->data);
    dst->len = src->len;
}

static void state_init(dl_ctx *c, dl_state *s)
{
    memset(s, 0, sizeof *s);
    s->held_must = s->rel_may = s->rel_must = s->live = s->conds = s->joined = c->empty;
}

static void state_free(dl_state *s)
{
    base_vec_free(&s->opq);
    base_vec_free(&s->since);
    base_vec_free(&s->predv);
    base_vec_free(&s->retcases);
    base_vec_free(&s->condheld);
    base_vec_free(&s->held);
    base_vec_free(&s->env);
    base_vec_free(&s->tryres);
}

static void state_copy(dl_state *dst, const dl_state *src)
{
    dst->reached = src->reached;
    kv_copy(&dst->held, &src->held);
    kv_copy(&dst->env, &src->env);
    kv_copy(&dst->tryres, &src->tryres);
    kv_copy(&dst->condheld, &src->condheld);
    kv_copy(&dst->retcases, &src->retcases);
    kv_copy(&dst->opq, &src->opq);
    kv_copy(&dst->since, &src->since);
    kv_copy(&dst->predv, &src->predv);
    dst->held_must = src->held_must;
    dst->rel_may = src->rel_may;
    dst->rel_must = src->rel_must;
    dst->live = src->live;
    dst->conds = src->conds;
    dst->joined = src->joined;
}

static uint32_t var_key(const ir_var *v)
{
    return v->kind == IR_V_PARAM ? 0x80000000u | v->id : v->id;
}

static bool tracked(const ir_var *v)
{
    return v->kind != IR_V_GLOBAL && !v->address_taken;
}

static uint32_t var_path(fn_an *a, const ir_var *v)
{
    switch (v->kind) {
    case IR_V_GLOBAL:
        return dl_path_base(a->c, DL_BASE_GLOBAL, v->id, 0);
    case IR_V_PARAM:
        return dl_path_base(a->c, DL_BASE_PARAM, v->id, 0);
    default:
        return dl_path_base(a->c, DL_BASE_LOCAL, a->fi, v->id);
    }
}

/* The value a tracked variable holds when the env has no entry: itself. */
static uint32_t self_value(fn_an *a, uint32_t key)
{
    if (key & 0x80000000u)
        return dl_val_load(dl_path_base(a->c, DL_BASE_PARAM, key & 0x7fffffffu, 0));
    return dl_val_load(dl_path_base(a->c, DL_BASE_LOCAL, a->fi, key));
}

/* The atom a lock held on one side of a join is conditional on afterwards
 * (DL_NONE: none): every side that may hold it guarantees the atom, by its
 * own entry or by having the atom true on all its paths; a lock held on one
 * side only takes an atom of that side whose negation holds on the other. */
/* Whether on every path of side x, the atom implies lock mode lm held:
 * the lock is held on all of them, or the side's entry says so, or the
 * atom holds on none of them. */
static bool implies_held(dl_ctx *c, const dl_state *x, uint32_t lm, uint32_t at)
{
    if (dl_set_has(c, x->held_must, lm) || dl_set_has(c, x->conds, dl_atom_neg(c, at)))
        return true;
    int i = kv_find(&x->condheld, lm);
    return i >= 0 && x->condheld.data[i].v == (at | CH_MUST);
}

static uint32_t cond_join_atom(dl_ctx *c, const dl_state *d, const dl_state *s, uint32_t lm,
                               bool in_d, bool in_s);

/* The condheld entry of lm after a join (DL_NONE: none): the atom, with
 * CH_MUST when both sides imply the lock held where it holds. */
static uint32_t cond_join(dl_ctx *c, const dl_state *d, const dl_state *s, uint32_t lm, bool in_d,
                          bool in_s)
{
    uint32_t at = cond_join_atom(c, d, s, lm, in_d, in_s);
    if (at == DL_NONE)
        return DL_NONE;
    return implies_held(c, d, lm, at) && implies_held(c, s, lm, at) ? at | CH_MUST : at;
}

static uint32_t cond_join_atom(dl_ctx *c, const dl_state *d, const dl_state *s, uint32_t lm,
                               bool in_d, bool in_s)
{
    int id = kv_find(&d->condheld, lm), is = kv_find(&s->condheld, lm);
    uint32_t ed = id >= 0 ? d->condheld.data[id].v & ~CH_MUST : DL_NONE;
    uint32_t es = is >= 0 ? s->condheld.data[is].v & ~CH_MUST : DL_NONE;
    if (in_d && in_s) {
        if (ed != DL_NONE && (ed == es || dl_set_has(c, s->conds, ed)))
            return ed;
        if (es != DL_NONE && dl_set_has(c, d->conds, es))
            return es;
        return DL_NONE;
    }
    const dl_state *h = in_d ? d : s, *o = in_d ? s : d;
    uint32_t e = in_d ? ed : es;
    if (e != DL_NONE)
        return e;
    for (uint32_t k = 0; k < dl_set_len(c, h->conds); k++) {
        uint32_t at = dl_set_data(c, h->conds)[k];
        if (dl_set_has(c, o->conds, dl_atom_neg(c, at)))
            return at;
    }
    return DL_NONE;
}

/* Keeps the entries of dst that src has with the same value; returns
 * whether dst changed. */
static bool kv_keep_agreed(kv_vec *dst, const kv_vec *src)
{
    bool changed = false;
    for (size_t k = 0; k < dst->len;) {
        int m = kv_find(src, dst->data[k].k);
        if (m < 0 || src->data[m].v != dst->data[k].v) {
            kv_del(dst, dst->data[k].k);
            changed = true;
        } else {
            k++;
        }
    }
    return changed;
}

/* Joins src into dst; returns whether dst changed. */
static bool state_join(fn_an *a, dl_state *dst, const dl_state *src)
{
    dl_ctx *c = a->c;
    if (!src->reached)
        return false;
    if (!dst->reached) {
        state_copy(dst, src);
        return true;
    }
    bool changed = false;
    /* condheld, from both sides before held is merged */
    {
        kv_vec nc = { 0 };
        size_t i = 0, j = 0;
        while (i < dst->held.len || j < src->held.len) {
            uint32_t lm;
            bool in_d, in_s;
            if (j >= src->held.len || (i < dst->held.len && dst->held.data[i].k < src->held.data[j].k))
                lm = dst->held.data[i++].k, in_d = true, in_s = false;
            else if (i >= dst->held.len || src->held.data[j].k < dst->held.data[i].k)
                lm = src->held.data[j++].k, in_d = false, in_s = true;
            else
                lm = dst->held.data[i].k, i++, j++, in_d = in_s = true;
            uint32_t at = cond_join(a->c, dst, src, lm, in_d, in_s);
            if (at != DL_NONE)
                base_vec_push(&nc, ((kv){ lm, at }));
        }
        if (nc.len != dst->condheld.len ||
            (nc.len && memcmp(nc.data, dst->condheld.data, nc.len * sizeof *nc.data))) {
            changed = true;
            base_vec_free(&dst->condheld);
            dst->condheld = nc;
        } else {
            base_vec_free(&nc);
        }
    }
    /* held: union, the smaller trace id wins */
    for (size_t i = 0; i < src->held.len; i++) {
        int j = kv_find(&dst->held, src->held.data[i].k);
        if (j < 0) {
            kv_put(&dst->held, src->held.data[i].k, src->held.data[i].v);
            changed = true;
        } else if (src->held.data[i].v < dst->held.data[j].v) {
            dst->held.data[j].v = src->held.data[i].v;
            changed = true;
        }
    }
    uint32_t x, dst_live_before = dst->live;
    x = dl_set_inter(c, dst->held_must, src->held_must);
    changed |= x != dst->held_must, dst->held_must = x;
    x = dl_set_union(c, dst->rel_may, src->rel_may);
    changed |= x != dst->rel_may, dst->rel_may = x;
    x = dl_set_inter(c, dst->rel_must, src->rel_must);
    changed |= x != dst->rel_must, dst->rel_must = x;
    x = dl_set_union(c, dst->live, src->live);
    changed |= x != dst->live, dst->live = x;
    x = dl_set_inter(c, dst->conds, src->conds);
    changed |= x != dst->conds, dst->conds = x;
    x = dl_set_inter(c, dst->joined, src->joined);
    changed |= x != dst->joined, dst->joined = x;
    /* env: union of the value sets, an absent entry standing for the
     * variable itself; too many values: the variable itself */
    kv_vec merged = { 0 };
    size_t i = 0, j = 0;
    while (i < dst->env.len || j < src->env.len) {
        uint32_t k, s1, s2;
        if (j >= src->env.len || (i < dst->env.len && dst->env.data[i].k < src->env.data[j].k)) {
            k = dst->env.data[i].k, s1 = dst->env.data[i].v, i++;
            uint32_t sv = self_value(a, k);
            s2 = dl_set(c, &sv, 1);
        } else if (i >= dst->env.len || src->env.data[j].k < dst->env.data[i].k) {
            k = src->env.data[j].k, s2 = src->env.data[j].v, j++;
            uint32_t sv = self_value(a, k);
            s1 = dl_set(c, &sv, 1);
        } else {
            k = dst->env.data[i].k, s1 = dst->env.data[i].v, s2 = src->env.data[j].v, i++, j++;
        }
        uint32_t u = dl_set_union(c, s1, s2);
        if (dl_set_len(c, u) <= DL_MAX_ENV_VALUES)
            base_vec_push(&merged, ((kv){ k, u }));
    }
    if (merged.len != dst->env.len ||
        (merged.len && memcmp(merged.data, dst->env.data, merged.len * sizeof *merged.data))) {
        changed = true;
        base_vec_free(&dst->env);
        dst->env = merged;
    } else {
        base_vec_free(&merged);
    }
    /* tryres, retcases: kept where both agree */
    changed |= kv_keep_agreed(&dst->tryres, &src->tryres);
    changed |= kv_keep_agreed(&dst->retcases, &src->retcases);
    changed |= kv_keep_agreed(&dst->predv, &src->predv);
    /* since: intersected where both sides started the instance; an
     * instance one side has not started keeps the other side's entry */
    for (size_t q = 0; q < dst->since.len;) {
        uint32_t in = dst->since.data[q].k;
        int m = kv_find(&src->since, in);
        uint32_t v = m >= 0 ? dl_set_inter(c, dst->since.data[q].v, src->since.data[m].v)
                     : dl_set_has(c, src->live, in) ? c->empty
                                                    : dst->since.data[q].v;
        if (v != dst->since.data[q].v)
            changed = true;
        if (dl_set_len(c, v) == 0) {
            kv_del(&dst->since, in);
            continue;
        }
        dst->since.data[q++].v = v;
    }
    for (size_t q = 0; q < src->since.len; q++)
        if (kv_find(&dst->since, src->since.data[q].k) < 0 &&
            !dl_set_has(c, dst_live_before, src->since.data[q].k)) {
            kv_put(&dst->since, src->since.data[q].k, src->since.data[q].v);
            changed = true;
        }
    for (size_t q = 0; q < src->opq.len; q++) /* may: union */
        if (kv_find(&dst->opq, src->opq.data[q].k) < 0) {
            kv_put(&dst->opq, src->opq.data[q].k, src->opq.data[q].v);
            changed = true;
        }
    return changed;
}

/* --- expressions to values and paths --- */

static uint32_t eval(fn_an *a, const dl_state *st, const ir_expr *e);

static bool const_value(const ir_expr *e, int64_t *v)
{
    while (e->kind == IR_E_CAST)
        e = e->a;
    if (e->kind != IR_E_CONST)
        return false;
    *v = e->value;
    return true;
}

static const ir_expr *strip_casts(const ir_expr *e)
{
    while (e && e->kind == IR_E_CAST)
        e = e->a;
    return e;
}

/* The set of paths an lvalue may denote. */
static uint32_t lvpaths(fn_an *a, const dl_state *st, const ir_expr *e)
{
    dl_ctx *c = a->c;
    switch (e->kind) {
    case IR_E_VAR: {
        uint32_t p = var_path(a, e->var);
        return dl_set(c, &p, 1);
    }
    case IR_E_DEREF: {
        uint32_t vs = eval(a, st, e->a);
        uint32_t n = dl_set_len(c, vs), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
        for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++) {
            uint32_t p = dl_deref(c, dl_set_data(c, vs)[i]);
            if (p != DL_NONE)
                out[m++] = p;
        }
        return dl_set(c, out, m);
    }
    case IR_E_FIELD:
    case IR_E_INDEX: {
        uint32_t ps = lvpaths(a, st, e->a);
        uint32_t n = dl_set_len(c, ps), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
        int64_t k = 0;
        bool is_const = e->kind == IR_E_INDEX && const_value(e->b, &k);
        for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++) {
            uint32_t p = dl_set_data(c, ps)[i];
            if (e->kind == IR_E_FIELD)
                p = dl_path_sel(c, p, DL_SEL_FIELD, e->field, (uint64_t)(uintptr_t)e->a->type);
            else if (is_const)
                p = dl_path_sel(c, p, DL_SEL_INDEX, (uint64_t)k, 0);
            else
                p = dl_path_sel(c, p, DL_SEL_ANY, 0, 0);
            if (p != DL_NONE)
                out[m++] = p;
        }
        return dl_set(c, out, m);
    }
    case IR_E_CAST:
        return lvpaths(a, st, e->a);
    default:
        return c->empty;
    }
}

/* The set of values a pointer expression may have (empty: unknown). */
static uint32_t eval(fn_an *a, const dl_state *st, const ir_expr *e)
{
    dl_ctx *c = a->c;
    switch (e->kind) {
    case IR_E_VAR:
        if (tracked(e->var)) {
            uint32_t k = var_key(e->var);
            int i = kv_find(&st->env, k);
            if (i >= 0)
                return st->env.data[i].v;
            uint32_t sv = self_value(a, k);
            return dl_set(c, &sv, 1);
        }
        /* fall through */
    case IR_E_DEREF:
    case IR_E_FIELD:
    case IR_E_INDEX: {
        uint32_t ps = lvpaths(a, st, e);
        uint32_t n = dl_set_len(c, ps), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
        for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++)
            out[m++] = dl_val_load(dl_set_data(c, ps)[i]);
        return dl_set(c, out, m);
    }
    case IR_E_ADDR: {
        uint32_t ps = lvpaths(a, st, e->a);
        uint32_t n = dl_set_len(c, ps), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
        for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++)
            out[m++] = dl_val_addr(dl_set_data(c, ps)[i]);
        return dl_set(c, out, m);
    }
    case IR_E_FUNC: {
        uint32_t fi = dl_func_index(c, e->func);
        if (fi == DL_NONE)
            return c->empty;
        uint32_t v = dl_val_addr(dl_path_base(c, DL_BASE_FUNC, fi, 0));
        return dl_set(c, &v, 1);
    }
    case IR_E_CAST:
        return eval(a, st, e->a);
    case IR_E_ITE: {
        uint32_t u = dl_set_union(c, eval(a, st, e->b), eval(a, st, e->c));
        return dl_set_len(c, u) <= DL_MAX_ENV_VALUES ? u : c->empty;
    }
    case IR_E_BINARY: {
        if (e->op != IR_OP_PTR_ADD)
            return c->empty;
        uint32_t vs = eval(a, st, e->a);
        int64_t k = 0;
        bool is_const = const_value(e->b, &k);
        uint32_t n = dl_set_len(c, vs), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
        for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++) {
            uint32_t v = dl_set_data(c, vs)[i];
            if (is_const && k == 0) {
                out[m++] = v;
                continue;
            }
            uint32_t p = dl_val_path(v);
            if (dl_val_is_addr(v)) {
                const dl_path *pp = &c->paths.data[p];
                if (pp->kind == DL_SEL_INDEX && is_const)
                    p = dl_path_sel(c, pp->parent, DL_SEL_INDEX, pp->a + (uint64_t)k, 0);
                else if (pp->kind == DL_SEL_INDEX || pp->kind == DL_SEL_ANY)
                    p = dl_path_sel(c, pp->parent, DL_SEL_ANY, 0, 0);
                /* else: pointer arithmetic past a scalar object, keep it */
            } else {
                p = dl_path_sel(c, p, DL_SEL_DEREF, 0, 0);
                p = is_const ? dl_path_sel(c, p, DL_SEL_INDEX, (uint64_t)k, 0)
                             : dl_path_sel(c, p, DL_SEL_ANY, 0, 0);
            }
            if (p != DL_NONE)
                out[m++] = dl_val_addr(p);
        }
        return dl_set(c, out, m);
    }
    default:
        return c->empty;
    }
}

/* The locks a lock statement's pointer operand may denote. */
static uint32_t lock_paths(fn_an *a, const dl_state *st, const ir_expr *ptr)
{
    dl_ctx *c = a->c;
    uint32_t vs = eval(a, st, ptr);
    uint32_t n = dl_set_len(c, vs), out[DL_MAX_ENV_VALUES * 2 + 1], m = 0;
    for (uint32_t i = 0; i < n && m < sizeof out / sizeof *out; i++) {
        uint32_t v = dl_set_data(c, vs)[i];
        const dl_path *p = &c->paths.data[dl_val_path(v)];
        if (dl_val_is_addr(v) && p->kind == DL_BASE_FUNC)
            continue;
        uint32_t l = dl_deref(c, v);
        if (l != DL_NONE)
            out[m++] = l;
    }
    return dl_set(c, out, m);
}

/* --- recording into the summary being built --- */

static uint32_t locks_of(dl_ctx *c, uint32_t modes)
{
    uint32_t n = dl_set_len(c, modes);
    if (n == 0)
        return modes;
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = dl_set_data(c, modes)[i] >> 1;
    uint32_t s = dl_set(c, tmp, n);
    free(tmp);
    return s;
}

static uint32_t held_locks(dl_ctx *c, const dl_state *st)
{
    uint32_t n = (uint32_t)st->held.len;
    if (n == 0)
        return c->empty;
    uint32_t *tmp = base_xmalloc(n * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++)
        tmp[i] = st->held.data[i].k >> 1;
    uint32_t s = dl_set(c, tmp, n);
    free(tmp);
    return s;
}

/* Dependencies are kept apart by the threads that may run at their time,
 * so a reported chain is one that runs concurrently with the other edges. */
/* A type mark (TRUE(g) on the value of function g: g reached by type
 * only, type_mark) in a set of atoms, or DL_NONE. */
static uint32_t type_mark_in(dl_ctx *c, uint32_t conds)
{
    for (uint32_t k = 0; k < dl_set_len(c, conds); k++) {
        uint32_t at = dl_set_data(c, conds)[k];
        const dl_atom *x = &c->atoms.data[at];
        const dl_path *fp = &c->paths.data[dl_val_path(x->x)];
        if (x->op == DL_CMP_TRUE && !dl_val_is_addr(x->x) && fp->kind == DL_BASE_FUNC &&
            fp->parent == DL_NONE)
            return at;
    }
    return DL_NONE;
}

/* The conditions of two effects merged into one: those of both; when
 * each came through a callee reached by type only (two candidates), the
 * merged one did too, and keeps one's mark. */
static uint32_t merge_conds(dl_ctx *c, uint32_t x, uint32_t y)
{
    uint32_t r = dl_set_inter(c, x, y), m = type_mark_in(c, x);
    if (m != DL_NONE && type_mark_in(c, y) != DL_NONE && type_mark_in(c, r) == DL_NONE)
        r = dl_set_add(c, r, m);
    return r;
}

static void add_dep(fn_an *a, const dl_dep *d)
{
    uint64_t key = base_hash64(((uint64_t)d->a << 32 | d->b) ^
                               (a->merge_par ? 0 : base_hash64(d->par))), ix;
    if (key == BASE_HASHMAP_EMPTY)
        key = 0;
    while (base_hashmap_get(&a->dep_ix, key, &ix)) {
        dl_dep *o = &a->sum->deps.data[ix];
        if (o->a != d->a || o->b != d->b || (o->par != d->par && !a->merge_par)) {
            key = base_hash64(key + 1);
            if (key == BASE_HASHMAP_EMPTY)
                key = 0;
            continue;
        }
        o->guards = dl_set_inter(a->c, o->guards, d->guards);
        o->conds = merge_conds(a->c, o->conds, d->conds);
        o->joined = dl_set_inter(a->c, o->joined, d->joined);
        o->may_held = o->may_held && d->may_held;
        if (o->chain != d->chain)
            o->chain = DL_NONE;
        if (a->merge_par) /* the widening: the threads of both */
            o->par = dl_set_union(a->c, o->par, d->par);
        return;
    }
    base_hashmap_put(&a->dep_ix, key, a->sum->deps.len);
    base_vec_push(&a->sum->deps, *d);
}

static void add_acq(fn_an *a, const dl_acq *q)
{
    uint64_t key = (uint64_t)q->lm << 1 | q->is_try, ix;
    if (base_hashmap_get(&a->acq_ix, key, &ix)) {
        dl_acq *o = &a->sum->acqs.data[ix];
        o->guards = dl_set_inter(a->c, o->guards, q->guards);
        o->released = dl_set_inter(a->c, o->released, q->released);
        o->par = dl_set_union(a->c, o->par, q->par);
        o->conds = merge_conds(a->c, o->conds, q->conds);
        o->joined = dl_set_inter(a->c, o->joined, q->joined);
        if (o->anchor != q->anchor || o->link != q->link)
            o->anchor = o->link = DL_NONE;
        return;
    }
    base_hashmap_put(&a->acq_ix, key, a->sum->acqs.len);
    base_vec_push(&a->sum->acqs, *q);
}

static void add_self(fn_an *a, const dl_self *s)
{
    uint64_t ix;
    if (base_hashmap_get(&a->self_ix, s->lock, &ix)) {
        dl_self *o = &a->sum->selfs.data[ix];
        o->par = dl_set_union(a->c, o->par, s->par);
        return;
    }
    base_hashmap_put(&a->self_ix, s->lock, a->sum->selfs.len);
    base_vec_push(&a->sum->selfs, *s);
}

static void add_spawn(fn_an *a, const dl_spawn *s)
{
    uint64_t ix;
    if (base_hashmap_get(&a->spawn_ix, s->inst, &ix)) {
        dl_spawn *o = &a->sum->spawns.data[ix];
        o->live = dl_set_union(a->c, o->live, s->live);
        o->multi |= s->multi;
        return;
    }
    base_hashmap_put(&a->spawn_ix, s->inst, a->sum->spawns.len);
    base_vec_push(&a->sum->spawns, *s);
}

static bool relock_blocks(dl_ctx *c, uint32_t lock, bool stmt_recursive)
{
    /* a lock named by what a call returned: two calls may return two
     * objects, so taking it "again" is no evidence of anything */
    dl_path_kind root = (dl_path_kind)c->paths.data[dl_path_root(c, lock)].kind;
    if (root == DL_BASE_RET || root == DL_BASE_CLASS) /* a class: several objects */
        return false;
    return !(stmt_recursive && !c->opts->no_recursive) && !dl_lock_is_recursive(c, lock);
}

/* The value a call's result gets when the analysis cannot tell what the
 * callee returns: the callee's return, named `f()` (DL_NONE: several
 * candidates). */
static uint32_t ret_value(dl_ctx *c, const ir_func *const *cands, uint32_t ncands)
{
    uint32_t gi = ncands == 1 ? dl_func_index(c, cands[0]) : DL_NONE;
    return gi == DL_NONE ? DL_NONE : dl_val_load(dl_path_base(c, DL_BASE_RET, gi, 0));
}

/* L may have been released: no instance was started in a critical
 * section of L that still lasts. */
static void since_drop(dl_ctx *c, dl_state *st, uint32_t lock)
{
    for (size_t i = 0; i < st->since.len;) {
        uint32_t v = dl_set_minus(c, st->since.data[i].v, dl_set(c, &lock, 1));
        if (dl_set_len(c, v) == 0) {
            kv_del(&st->since, st->since.data[i].k);
            continue;
        }
        st->since.data[i++].v = v;
    }
}

static void drop_lock(dl_ctx *c, dl_state *st, uint32_t lock)
{
    since_drop(c, st, lock);
    kv_del(&st->opq, lock << 1);
    kv_del(&st->opq, lock << 1 | 1u);
    kv_del(&st->held, lock << 1);
    kv_del(&st->held, lock << 1 | 1u);
    kv_del(&st->condheld, lock << 1);
    kv_del(&st->condheld, lock << 1 | 1u);
    uint32_t two[2] = { lock << 1, lock << 1 | 1u };
    st->held_must = dl_set_minus(c, st->held_must, dl_set(c, two, 2));
}

static void reset_lockset(dl_ctx *c, dl_state *st)
{
    st->since.len = 0;
    st->opq.len = 0;
    st->held.len = 0;
    st->condheld.len = 0;
    st->held_must = c->empty;
}

/* --- transfer functions --- */

/* The conditions of a dependency or acquisition recorded in state st,
 * with the markers of the order thread creation gives (dl_internal.h):
 * AFTER for each lock released on every path since entry, SINCE for each
 * handle whose running instances were all started inside a critical
 * section of a lock still held (and not among `keep_out`: entry locks a
 * callee may release). */
static uint32_t order_conds(dl_ctx *c, const dl_state *st, uint32_t conds, uint32_t keep_out)
{
    for (uint32_t i = 0; i < dl_set_len(c, st->rel_must); i++) {
        uint32_t v = dl_val_addr(dl_set_data(c, st->rel_must)[i]);
        conds = dl_set_add(c, conds, dl_atom_mk(c, DL_CMP_AFTER, v, v));
    }
    if (st->since.len == 0)
        return conds;
    uint32_t n = dl_set_len(c, st->live);
    const uint32_t *live = dl_set_data(c, st->live);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = c->insts.data[live[i]].handle;
        if (h == DL_NONE)
            continue;
        bool first = true;
        for (uint32_t j = 0; j < i && first; j++)
            first = c->insts.data[live[j]].handle != h;
        if (!first)
            continue; /* this handle is done */
        uint32_t locks = DL_NONE;
        for (uint32_t j = i; j < n; j++) {
            if (c->insts.data[live[j]].handle != h)
                continue;
            int k = kv_find(&st->since, live[j]);
            uint32_t s = k >= 0 ? st->since.data[k].v : c->empty;
            locks = locks == DL_NONE ? s : dl_set_inter(c, locks, s);
        }
        locks = dl_set_minus(c, locks, keep_out);
        for (uint32_t j = 0; j < dl_set_len(c, locks); j++) {
            uint32_t L = dl_set_data(c, locks)[j];
            if (!dl_set_has(c, st->held_must, L << 1))
                continue;
            conds = dl_set_add(c, conds, dl_atom_mk(c, DL_CMP_SINCE, dl_val_addr(L), dl_val_addr(h)));
        }
    }
    return conds;
}

/* The conditions of a dependency from held lock mode A: with the marker
 * of the bodiless function A was passed to, if any. */
static uint32_t with_opaque(dl_ctx *c, const dl_state *st, uint32_t A, uint32_t conds)
{
    int i = kv_find(&st->opq, A);
    return i < 0 ? conds : dl_set_add(c, conds, st->opq.data[i].v);
}

/* pthread_cond_wait(c, m) is lowered to unlock(m); cond_wait(c, m);
 * lock(m), all three on one operand expression. The unlock is the wait's
 * release, the lock its re-take. */
static bool is_wait_release(const ir_func *f, const ir_stmt *s)
{
    size_t i = (size_t)(s - f->stmts);
    if (s->kind != IR_S_UNLOCK || i + 2 >= f->nstmts)
        return false;
    const ir_stmt *w = &f->stmts[i + 1], *l = &f->stmts[i + 2];
    return w->kind == IR_S_COND_WAIT && w->nargs == 1 && w->args[0] == s->rhs &&
           l->kind == IR_S_LOCK && l->rhs == s->rhs;
}

static bool is_wait_retake(const ir_func *f, const ir_stmt *s)
{
    size_t i = (size_t)(s - f->stmts);
    return s->kind == IR_S_LOCK && i >= 2 && is_wait_release(f, &f->stmts[i - 2]);
}

static void do_lock(fn_an *a, const ir_stmt *s, dl_state *st)
{
    dl_ctx *c = a->c;
    uint32_t locks = lock_paths(a, st, s->rhs);
    uint32_t n = dl_set_len(c, locks);
    if (n == 0) {
        if (a->record && !a->pknown)
            a->sum->nunknown++;
        return;
    }
    bool read = s->lock_kind == IR_LOCK_RW_READ && !c->opts->no_rwlock;
    bool is_try = s->is_try && !c->opts->no_trylock;
    bool stmt_rec = s->lock_kind == IR_LOCK_MUTEX_RECURSIVE || s->lock_kind == IR_LOCK_MUTEX_ERRORCHECK;
    /* the re-take after a wait: the mutex is taken back, not taken anew. It
     * waits (a dependency from every other lock held across the wait: a
     * wakeup, even a spurious one, while another thread holds the mutex
     * and wants one of those locks is a deadlock), but it is no
     * self-deadlock, no sign of an infeasible path, and the mutex keeps
     * the trace of its first acquisition */
    bool retake = is_wait_retake(a->f, s);
    uint32_t tr = dl_trace_mk(c, retake ? DL_TR_RETAKE : DL_TR_LOCK, a->f, s->loc, DL_NONE);
    uint32_t taken[DL_MAX_ENV_VALUES * 2 + 1], ntaken = 0, keep_tr[DL_MAX_ENV_VALUES * 2 + 1];
    const dl_state *before = retake && a->ins ? &a->ins[(s - a->f->stmts) - 2] : NULL;
    for (uint32_t li = 0; li < n; li++) {
        uint32_t L = dl_set_data(c, locks)[li];
        uint32_t lm = L << 1 | (read ? 1u : 0u);
        int hr = kv_find(&st->held, L << 1 | 1u), hw = kv_find(&st->held, L << 1);
        bool held_may = hr >= 0 || hw >= 0;
        bool blocks_on_self = relock_blocks(c, L, stmt_rec) && !(read && hw < 0) && !retake;
        int orig = before ? kv_find(&before->held, lm) : -1;
        keep_tr[ntaken] = orig >= 0 ? before->held.data[orig].v : tr;
        if (a->record && a->loop_self && a->loop_self[s - a->f->stmts] && n == 1 && !is_try) {
            /* every path from this statement back to it keeps the lock:
             * the next iteration takes it again */
            dl_self sd = { L, tr, tr, st->live };
            add_self(a, &sd);
        }
        if (a->record) {
            uint32_t hl = locks_of(c, st->held_must);
            uint32_t guards = hl;
            uint32_t oc = order_conds(c, st, st->conds, c->empty);
            if (!is_try) {
                for (size_t i = 0; i < st->held.len; i++) {
                    uint32_t A = st->held.data[i].k;
                    /* a re-take waits for none of the objects its own
                     * operand may name: the wait released one of them */
                    if ((A >> 1 == L && !dl_path_is_class(c, L)) ||
                        (retake && dl_set_has(c, locks, A >> 1)))
                        continue;
                    dl_dep d = { A, lm, st->held.data[i].v, tr, guards, st->live,
                                 with_opaque(c, st, A, oc), st->joined,
                                 !dl_set_has(c, st->held_must, A), dl_path_chain(c, A >> 1, L) };
                    add_dep(a, &d);
                }
                bool must_w = dl_set_has(c, st->held_must, L << 1);
                bool must_r = dl_set_has(c, st->held_must, L << 1 | 1u);
                if (n == 1 && (must_w || (must_r && !read)) && relock_blocks(c, L, stmt_rec) &&
                    !retake) {
                    int hi = hw >= 0 ? hw : hr;
                    dl_self sd = { L, st->held.data[hi].v, tr, st->live };
                    add_self(a, &sd);
                }
            }
            dl_acq q = { lm, is_try, tr, guards, st->rel_may, st->live, oc, st->joined, DL_NONE, DL_NONE };
            q.anchor = dl_path_anchor(c, L, DL_NONE, &q.link);
            add_acq(a, &q);
            if (!held_may && !dl_set_has(c, st->rel_may, L) && !retake)
                a->sum->must_free_entry = dl_set_add(c, a->sum->must_free_entry, L);
        }
        if (held_may && blocks_on_self && !is_try && !c->opts->no_double_lock_reset)
            reset_lockset(c, st); /* heuristic 1: a double lock means an infeasible path */
        taken[ntaken++] = lm;
    }
    for (uint32_t i = 0; i < ntaken; i++) {
        if (!retake)
            kv_del(&st->opq, taken[i]);
        kv_put(&st->held, taken[i], keep_tr[i]);
        kv_del(&st->condheld, taken[i]);
        if (n == 1)
            st->held_must = dl_set_add(c, st->held_must, taken[i]);
        st->rel_may = dl_set_minus(c, st->rel_may, dl_set(c, (uint32_t[]){ taken[i] >> 1 }, 1));
        st->rel_must = dl_set_minus(c, st->rel_must, dl_set(c, (uint32_t[]){ taken[i] >> 1 }, 1));
    }
    /* a lock taken between a call and the test of its value: the test no
     * longer tells whether it is held */
    st->retcases.len = 0;
    if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var))
        kv_put(&st->tryres, var_key(s->lhs->var), dl_set(c, taken, ntaken));
}

static void do_unlock(fn_an *a, const ir_stmt *s, dl_state *st)
{
    dl_ctx *c = a->c;
    uint32_t locks = lock_paths(a, st, s->rhs);
    uint32_t n = dl_set_len(c, locks);
    for (uint32_t li = 0; li < n; li++) {
        uint32_t L = dl_set_data(c, locks)[li];
        bool held_may = kv_find(&st->held, L << 1) >= 0 || kv_find(&st->held, L << 1 | 1u) >= 0;
        if (a->record && !held_may && !dl_set_has(c, st->rel_may, L))
            a->sum->must_held_entry = dl_set_add(c, a->sum->must_held_entry, L);
        if (dl_set_has(c, st->rel_may, L) && !c->opts->no_double_lock_reset && !held_may)
            reset_lockset(c, st); /* heuristic 1: double unlock */
        if (n == 1) {
            drop_lock(c, st, L);
            st->rel_must = dl_set_add(c, st->rel_must, L);
        } else {
            uint32_t two[2] = { L << 1, L << 1 | 1u };
            st->held_must = dl_set_minus(c, st->held_must, dl_set(c, two, 2));
            since_drop(c, st, L);
        }
        st->rel_may = dl_set_add(c, st->rel_may, L);
    }
}

static uint32_t set_rename_modes(dl_ctx *c, dl_rename *r, uint32_t s)
{
    return dl_rename_lockset(c, r, s, true);
}

/* The instances of live whose handle is not in the set of joined handles. */
static uint32_t live_minus(dl_ctx *c, uint32_t live, uint32_t joined)
{
    if (dl_set_len(c, joined) == 0 || dl_set_len(c, live) == 0)
        return live;
    uint32_t keep[64], nk = 0;
    for (uint32_t i = 0; i < dl_set_len(c, live) && nk < 64; i++) {
        uint32_t in = dl_set_data(c, live)[i];
        uint32_t h = c->insts.data[in].handle;
        if (h == DL_NONE || !dl_set_has(c, joined, h))
            keep[nk++] = in;
    }
    return dl_set(c, keep, nk);
}

/* Whether parameter i of f may be used as a constant through the body:
 * never assigned, address never taken. */
static bool param_is_fixed(const ir_func *f, uint32_t i)
{
    const ir_var *v = f->params[i];
    if (v->address_taken)
        return false;
    for (uint32_t k = 0; k < f->nstmts; k++) {
        const ir_expr *l = f->stmts[k].lhs;
        if (l && l->kind == IR_E_VAR && l->var == v)
            return false;
    }
    return true;
}

static bool mentions_param(const ir_expr *e, int depth)
{
    if (!e || depth > 16)
        return false;
    if (e->kind == IR_E_VAR)
        return e->var->kind == IR_V_PARAM;
    return mentions_param(e->a, depth + 1) || mentions_param(e->b, depth + 1) ||
           mentions_param(e->c, depth + 1);
}

bool dl_branches_on_param(dl_ctx *c, uint32_t gi)
{
    if (c->branches_on_param[gi] == 0) {
        const ir_func *g = c->prog->funcs[gi];
        bool any = false;
        for (uint32_t k = 0; k < g->nstmts && !any; k++) {
            const ir_stmt *t = &g->stmts[k];
            if ((t->kind == IR_S_GOTO || t->kind == IR_S_ASSUME) && mentions_param(t->rhs, 0))
                any = true;
        }
        c->branches_on_param[gi] = any ? 1 : 2;
    }
    return c->branches_on_param[gi] == 1;
}

static uint32_t bindings_at(fn_an *a, const dl_state *st, const ir_stmt *s, const ir_func *g,
                            uint32_t gi, dl_bind *out);
static bool chain_eq(const dl_chain *x, const dl_chain *y);
static uint64_t chain_key(dl_ctx *c, bool global, uint32_t root, const dl_chain *ch, uint32_t from);

static bool binds_eq(const dl_bind *x, const dl_bind *y, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (x[i].param != y[i].param || x[i].set != y[i].set || !chain_eq(&x[i].ch, &y[i].ch))
            return false;
    return true;
}

/* The summary of g specialised to the call's constant arguments, when g
 * branches on a parameter and is outside the component being analysed
 * (its callees' summaries are final), and to the functions its
 * parameters' objects hold where a call through them reaches fewer
 * functions so (bindings_at; also inside the component: such a
 * specialisation is provisional, made again in each round), else NULL.
 * Cached per (g, constants, bindings). */
static const dl_summary *specialised(fn_an *a, const dl_state *st, const ir_stmt *s,
                                     const ir_func *g, uint32_t gi)
{
    dl_ctx *c = a->c;
    if (g->nparams == 0 || g->nparams > 16 || !c->scc_of)
        return NULL;
    bool known[16] = { false };
    int64_t vals[16] = { 0 };
    bool anyk = false;
    uint64_t h = base_hash64(gi + 1);
    if (!c->opts->no_value_order && c->scc_of[gi] != c->cur_scc && c->sums[gi].done &&
        dl_branches_on_param(c, gi))
        for (uint32_t i = 0; i < g->nparams && i < s->nargs; i++) {
            int64_t v;
            if (const_eval(a, s->args[i], &v, 0) && param_is_fixed(g, i)) {
                known[i] = true;
                vals[i] = v;
                anyk = true;
                h = base_hash64(h ^ (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)v);
            }
        }
    dl_bind binds[DL_MAX_BINDS];
    uint32_t nb = c->spec_depth < DL_MAX_SPEC_DEPTH ? bindings_at(a, st, s, g, gi, binds) : 0;
    if (!anyk && nb == 0)
        return NULL;
    for (uint32_t i = 0; i < nb; i++)
        h = base_hash64(h ^ chain_key(c, false, binds[i].param, &binds[i].ch, 0) ^
                        (uint64_t)binds[i].set << 20);
    if (nb)
        c->bind_used = true;
    if (h == BASE_HASHMAP_EMPTY)
        h = 0;
    dl_spec *stale = NULL;
    for (;;) {
        uint64_t ix;
        if (!base_hashmap_get(&c->spec_ix, h, &ix))
            break;
        dl_spec *sp = c->specs.data[ix];
        if (sp->func == gi && memcmp(sp->known, known, sizeof known) == 0 &&
            memcmp(sp->vals, vals, sizeof vals) == 0 && sp->nbind == nb &&
            binds_eq(sp->binds, binds, nb)) {
            if (sp->busy)
                return NULL; /* being made again: a recursion through it */
            if (!sp->provisional)
                return &sp->sum;
            if (sp->gen == c->spec_gen) {
                c->spec_prov++;
                c->prov_used++;
                return &sp->sum;
            }
            stale = sp; /* of an earlier round: made again */
            break;
        }
        h = base_hash64(h + 1);
        if (h == BASE_HASHMAP_EMPTY)
            h = 0;
    }
    /* a specialisation analyses g, which may call itself (or another
     * specialisable function) with constants again: nested ones are
     * bounded, beyond that the general summary is used */
    if (c->spec_depth >= DL_MAX_SPEC_DEPTH)
        return NULL;
    dl_spec *sp = stale ? stale : base_xcalloc(1, sizeof *sp);
    if (stale)
        dl_summary_free(&sp->sum);
    sp->func = gi;
    memcpy(sp->known, known, sizeof known);
    memcpy(sp->vals, vals, sizeof vals);
    sp->nbind = nb;
    memcpy(sp->binds, binds, nb * sizeof *binds);
    size_t prov = c->spec_prov;
    c->spec_depth++;
    sp->busy = true;
    analyse_into(c, g, anyk ? sp->known : NULL, sp->vals, sp->binds, nb, &sp->sum);
    sp->busy = false;
    c->spec_depth--;
    sp->provisional = c->spec_prov != prov || c->scc_of[gi] == c->cur_scc;
    sp->gen = c->spec_gen;
    if (sp->provisional)
        c->spec_prov++, c->prov_used++;
    if (!stale) {
        base_vec_push(&c->specs, sp);
        base_hashmap_put(&c->spec_ix, h, c->specs.len - 1);
    }
    return &sp->sum;
}

/* Applies callee g's summary at call statement s (Algorithm 3). */
/* mark: an atom added to the conditions of every dependency and
 * acquisition the call contributes (a call through a pointer resolved by
 * type only), or DL_NONE. */
static void apply_summary(fn_an *a, const ir_stmt *s, const ir_func *g, dl_state *st, uint32_t mark)
{
    dl_ctx *c = a->c;
    uint32_t gi = dl_func_index(c, g);
    const dl_summary *x = &c->sums[gi];
    uint32_t np = g->nparams;
    uint32_t *actuals = base_xcalloc(np ? np : 1, sizeof *actuals);
    for (uint32_t i = 0; i < np; i++) {
        actuals[i] = DL_NONE;
        if (i < s->nargs) {
            uint32_t vs = eval(a, st, s->args[i]);
            if (dl_set_len(c, vs) == 1)
                actuals[i] = dl_set_data(c, vs)[0];
        }
    }
    const dl_summary *spec = specialised(a, st, s, g, gi);
    if (spec)
        x = spec;
    else if (c->scc_of && c->scc_of[gi] == c->cur_scc)
        c->spec_prov++; /* a summary that may still change in this component */
    dl_rename r;
    dl_rename_init(&r, g, actuals, np);
    uint32_t held_before = c->empty;
    if (x->nret_cases) {
        uint32_t *tmp = base_xmalloc((st->held.len + 1) * sizeof *tmp);
        for (size_t i = 0; i < st->held.len; i++)
            tmp[i] = st->held.data[i].k;
        held_before = dl_set(c, tmp, (uint32_t)st->held.len);
        free(tmp);
    }
    uint32_t mf = dl_rename_lockset(c, &r, x->must_free_entry, false);
    uint32_t mh = dl_rename_lockset(c, &r, x->must_held_entry, false);
    uint32_t hl_may = held_locks(c, st), hl_must = locks_of(c, st->held_must);
    bool reset = false;
    if (!c->opts->no_double_lock_reset) {
        uint32_t both = dl_set_inter(c, hl_may, mf);
        for (uint32_t i = 0; i < dl_set_len(c, both); i++)
            if (relock_blocks(c, dl_set_data(c, both)[i], false))
                reset = true;
        if (dl_set_len(c, dl_set_inter(c, dl_set_minus(c, st->rel_may, hl_may), mh)))
            reset = true;
    }
    /* A double lock or unlock through the call: the caller's lockset is not
     * trusted (an infeasible path), so no dependency starts from it. */
    size_t nheld = reset ? 0 : st->held.len;
    uint32_t hl_guard = reset ? c->empty : hl_must;
    if (a->record) {
        uint32_t oc = order_conds(c, st, st->conds, mh);
        a->sum->must_held_entry = dl_set_union(
            c, a->sum->must_held_entry, dl_set_minus(c, dl_set_minus(c, mh, hl_may), st->rel_may));
        a->sum->must_free_entry = dl_set_union(
            c, a->sum->must_free_entry, dl_set_minus(c, dl_set_minus(c, mf, hl_may), st->rel_may));
        for (size_t i = 0; i < x->acqs.len; i++) {
            const dl_acq *e = &x->acqs.data[i];
            uint32_t L = dl_rename_path(c, &r, e->lm >> 1);
            if (L == DL_NONE)
                continue;
            uint32_t lm = L << 1 | (e->lm & 1u);
            uint32_t rel = dl_rename_lockset(c, &r, e->released, false);
            uint32_t guards = dl_set_union(c, dl_set_minus(c, hl_guard, rel),
                                           dl_rename_lockset(c, &r, e->guards, false));
            uint32_t ejoined = dl_rename_lockset(c, &r, e->joined, false);
            uint32_t par = dl_set_union(c, dl_rename_instset(c, &r, e->par),
                                        live_minus(c, st->live, ejoined));
            uint32_t joined = dl_set_union(c, ejoined, st->joined);
            uint32_t tr = dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, e->trace);
            uint32_t conds = dl_set_union(c, dl_rename_atomset(c, &r, e->conds), oc);
            if (mark != DL_NONE)
                conds = dl_set_add(c, conds, mark);
            /* the callee's lock through a link from its anchor: a held
             * anchor gives the dependency that link (the lock itself may be
             * a class by now); the caller's acquisition keeps the anchor
             * with the steps through the link taken off (what is reached
             * from p->next through it is reached from p) */
            uint32_t link = DL_NONE, held_anchor = DL_NONE;
            uint32_t anchor = e->anchor == DL_NONE ? DL_NONE
                              : dl_path_anchor(c, held_anchor = dl_rename_path(c, &r, e->anchor),
                                               e->link, &link);
            if (anchor == DL_NONE)
                held_anchor = DL_NONE;
            if (!e->is_try) {
                for (size_t k = 0; k < nheld; k++) {
                    uint32_t A = st->held.data[k].k;
                    if ((A >> 1 == L && !dl_path_is_class(c, L)) || dl_set_has(c, rel, A >> 1))
                        continue;
                    uint32_t chain = dl_path_chain(c, A >> 1, L);
                    if (chain == DL_NONE && held_anchor != DL_NONE && A >> 1 == held_anchor)
                        chain = link;
                    dl_dep d = { A, lm, st->held.data[k].v, tr, guards, par,
                                 with_opaque(c, st, A, conds), joined,
                                 !dl_set_has(c, st->held_must, A), chain };
                    add_dep(a, &d);
                }
                bool must_w = dl_set_has(c, st->held_must, L << 1);
                bool must_r = dl_set_has(c, st->held_must, L << 1 | 1u);
                if ((must_w || (must_r && !(lm & 1u))) && !dl_set_has(c, rel, L) &&
                    relock_blocks(c, L, false)) {
                    int hi = kv_find(&st->held, must_w ? L << 1 : L << 1 | 1u);
                    dl_self sd = { L, hi >= 0 ? st->held.data[hi].v : tr, tr, par };
                    add_self(a, &sd);
                }
            }
            dl_acq q = { lm,   e->is_try, tr,    guards, dl_set_union(c, st->rel_may, rel),
                         par, conds,      joined, anchor, link };
            add_acq(a, &q);
        }
        for (size_t i = 0; i < x->deps.len; i++) {
            const dl_dep *d = &x->deps.data[i];
            uint32_t A = dl_rename_path(c, &r, d->a >> 1), B = dl_rename_path(c, &r, d->b >> 1);
            if (A == DL_NONE || B == DL_NONE || (A == B && !dl_path_is_class(c, A)))
                continue;
            uint32_t djoined = dl_rename_lockset(c, &r, d->joined, false);
            dl_dep nd = { A << 1 | (d->a & 1u), B << 1 | (d->b & 1u),
                          dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, d->ta),
                          dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, d->tb),
                          dl_set_union(c, dl_rename_lockset(c, &r, d->guards, false), hl_guard),
                          dl_set_union(c, dl_rename_instset(c, &r, d->par),
                                       live_minus(c, st->live, djoined)),
                          mark == DL_NONE
                              ? dl_set_union(c, dl_rename_atomset(c, &r, d->conds), oc)
                              : dl_set_add(c, dl_set_union(c, dl_rename_atomset(c, &r, d->conds),
                                                           oc), mark),
                          dl_set_union(c, djoined, st->joined), d->may_held,
                          d->chain != DL_NONE ? d->chain : dl_path_chain(c, A, B) };
            add_dep(a, &nd);
        }
        for (size_t i = 0; i < x->selfs.len; i++) {
            const dl_self *e = &x->selfs.data[i];
            uint32_t L = dl_rename_path(c, &r, e->lock);
            if (L == DL_NONE)
                continue;
            dl_self sd = { L, dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, e->t1),
                           dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, e->t2),
                           dl_set_union(c, dl_rename_instset(c, &r, e->par), st->live) };
            add_self(a, &sd);
        }
        for (size_t i = 0; i < x->spawns.len; i++) {
            const dl_spawn *e = &x->spawns.data[i];
            uint32_t inst = dl_rename_inst(c, &r, e->inst);
            dl_spawn sp = { inst, dl_set_union(c, dl_rename_instset(c, &r, e->live), st->live),
                            dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, e->trace),
                            e->multi || dl_set_has(c, st->live, inst) };
            add_spawn(a, &sp);
        }
        a->sum->recursive = dl_set_union(c, a->sum->recursive,
                                         dl_rename_lockset(c, &r, x->recursive, false));
        if (!a->pknown)
            a->sum->opaque = dl_set_union(c, a->sum->opaque, x->opaque);
    }
    /* the state after the call */
    uint32_t hmust_exit = set_rename_modes(c, &r, x->held_must_exit);
    uint32_t hmay_exit = set_rename_modes(c, &r, x->held_may_exit);
    uint32_t relmay = dl_rename_lockset(c, &r, x->rel_may_exit, false);
    uint32_t relmust = dl_rename_lockset(c, &r, x->rel_must_exit, false);
    if (reset) {
        reset_lockset(c, st);
    } else {
        for (uint32_t i = 0; i < dl_set_len(c, relmust); i++)
            drop_lock(c, st, dl_set_data(c, relmust)[i]);
        for (uint32_t i = 0; i < dl_set_len(c, relmay); i++)
            since_drop(c, st, dl_set_data(c, relmay)[i]);
        /* a lock the callee may have released (itself, or its class when
         * the callee's summary was widened) is no longer held on every path */
        uint32_t nhm = dl_set_len(c, st->held_must), nk = 0;
        uint32_t *kept = base_xmalloc((nhm + 1) * sizeof *kept);
        for (uint32_t i = 0; i < nhm; i++) {
            uint32_t lm = dl_set_data(c, st->held_must)[i], L = lm >> 1;
            if (!dl_set_has(c, relmay, L) && !dl_set_has(c, relmay, dl_path_class(c, L, true)))
                kept[nk++] = lm;
        }
        if (nk != nhm)
            st->held_must = dl_set(c, kept, nk);
        free(kept);
    }
    for (uint32_t i = 0; i < dl_set_len(c, hmay_exit); i++) {
        uint32_t lm = dl_set_data(c, hmay_exit)[i];
        if (kv_find(&st->held, lm) < 0) {
            uint32_t inner = DL_NONE;
            for (size_t k = 0; k < x->acqs.len; k++)
                if (dl_rename_path(c, &r, x->acqs.data[k].lm >> 1) == lm >> 1) {
                    inner = x->acqs.data[k].trace;
                    break;
                }
            uint32_t tr = inner == DL_NONE ? dl_trace_mk(c, DL_TR_LOCK, a->f, s->loc, DL_NONE)
                                           : dl_trace_mk(c, DL_TR_CALL, a->f, s->loc, inner);
            kv_put(&st->held, lm, tr);
        }
    }
    st->held_must = dl_set_union(c, st->held_must, hmust_exit);
    st->rel_may = dl_set_union(c, dl_set_minus(c, st->rel_may, locks_of(c, hmust_exit)), relmay);
    st->rel_must = dl_set_union(c, dl_set_minus(c, st->rel_must, locks_of(c, hmay_exit)), relmust);
    /* threads joined in the callee, and started and still running */
    uint32_t joins = dl_rename_lockset(c, &r, x->joins, false);
    if (dl_set_len(c, joins)) {
        uint32_t keep[64], nk = 0;
        for (uint32_t i = 0; i < dl_set_len(c, st->live) && nk < 64; i++) {
            uint32_t in = dl_set_data(c, st->live)[i];
            uint32_t h = c->insts.data[in].handle;
            if (h == DL_NONE || !dl_set_has(c, joins, h))
                keep[nk++] = in;
        }
        st->live = dl_set(c, keep, nk);
    }
    st->live = dl_set_union(c, st->live, dl_rename_instset(c, &r, x->live_exit));
    st->joined = dl_set_union(c, st->joined, dl_rename_lockset(c, &r, x->joined_exit, false));
    if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var)) {
        uint32_t k = var_key(s->lhs->var);
        kv_del(&st->tryres, k);
        kv_del(&st->retcases, k);
        if (dl_set_len(c, hmay_exit))
            st->retcases.len = 0; /* as a lock statement does */
        if (x->nret_cases >= 2 && !reset) {
            /* the locks the callee leaves held, by its return value (those
             * the caller held before are not the callee's to drop) */
            uint32_t ids[DL_MAX_RET_CASES];
            for (uint32_t i = 0; i < x->nret_cases; i++) {
                uint32_t held = dl_set_minus(c, set_rename_modes(c, &r, x->ret_case_held[i]),
                                             held_before);
                bool is_new;
                ids[i] = dl_tuple_intern(&c->cases_t,
                                         (dl_tuple){ (uint64_t)x->ret_case_val[i], held, 0, 0 }, &is_new);
            }
            kv_put(&st->retcases, k, dl_set(c, ids, x->nret_cases));
        }
        if (x->ret != DL_NONE && dl_set_len(c, x->ret)) {
            uint32_t rv = dl_rename_valset(c, &r, x->ret);
            if (dl_set_len(c, rv))
                kv_put(&st->env, k, rv);
            else
                kv_del(&st->env, k);
            /* a function that returns the lock it took, or NULL without it
             * (a trylock wrapper): the result tells whether it is held */
            if (x->ret_has_null && dl_set_len(c, rv) > 0) {
                uint32_t modes[DL_MAX_ENV_VALUES * 2 + 2], nm = 0;
                bool all = true;
                for (uint32_t i = 0; i < dl_set_len(c, rv) && all; i++) {
                    uint32_t v = dl_set_data(c, rv)[i];
                    uint32_t L = dl_val_is_addr(v) ? dl_val_path(v) : DL_NONE;
                    all = false;
                    for (uint32_t m = 0; L != DL_NONE && m < 2; m++) {
                        uint32_t lm = L << 1 | m;
                        if (dl_set_has(c, hmay_exit, lm) && !dl_set_has(c, hmust_exit, lm) &&
                            nm < DL_MAX_ENV_VALUES * 2 + 2) {
                            modes[nm++] = lm;
                            all = true;
                        }
                    }
                }
                if (all && nm)
                    kv_put(&st->tryres, k, dl_set(c, modes, nm) | TRY_NONNULL);
            }
        } else {
            uint32_t rv = ret_value(c, &g, 1);
            kv_put(&st->env, k, dl_set(c, &rv, 1));
        }
    }
    dl_rename_free(&r);
    free(actuals);
}

static bool has_summary(dl_ctx *c, const ir_func *g)
{
    uint32_t gi = dl_func_index(c, g);
    return gi != DL_NONE && g->has_body;
}

/* Types as a call through a pointer must agree (C's compatible types,
 * loosely): integers by width, aggregates by tag, pointers by what they
 * point to (two levels deep; qualifiers do not exist in the IR). */
static bool type_class_eq_depth(const ir_type *x, const ir_type *y, int depth)
{
    if (!x || !y || depth > 2)
        return true;
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case IR_T_INT:
    case IR_T_FLOAT:
        return x->bits == y->bits;
    case IR_T_STRUCT:
    case IR_T_UNION:
        return x->tag == y->tag;
    case IR_T_PTR:
    case IR_T_ARRAY:
        return type_class_eq_depth(x->to, y->to, depth + 1);
    default:
        return true;
    }
}

static bool type_class_eq(const ir_type *x, const ir_type *y)
{
    return type_class_eq_depth(x, y, 0);
}

/* Whether candidate g fits a call through a pointer whose function type
 * is ft (the pointer's type; NULL: unknown). */
/* Whether function g fits a call through a pointer of function type ft
 * (NULL: unknown, anything fits). */
static bool fn_type_fits(const ir_type *ft, const ir_func *g)
{
    const ir_type *gt = g->type;
    if (!gt || gt->kind != IR_T_FUNC || !ft || ft->kind != IR_T_FUNC)
        return true;
    if (ft->nparams != gt->nparams || ft->variadic != gt->variadic)
        return false;
    for (uint32_t i = 0; i < ft->nparams; i++)
        if (!type_class_eq(ft->params[i], gt->params[i]))
            return false;
    return type_class_eq(ft->to, gt->to);
}

static bool cand_fits(const ir_stmt *s, const ir_type *ft, const ir_func *g)
{
    const ir_type *gt = g->type;
    if (!gt || gt->kind != IR_T_FUNC)
        return true;
    if (ft && ft->kind == IR_T_FUNC)
        return fn_type_fits(ft, g);
    if (s->nargs < gt->nparams || (s->nargs > gt->nparams && !gt->variadic))
        return false;
    for (uint32_t i = 0; i < gt->nparams; i++)
        if (!type_class_eq(s->args[i]->type, gt->params[i]))
            return false;
    return true;
}

/* --- where function pointers are stored --- */

/* The store key of a global (its whole object, any element) and of a field
 * of a record type (in any object of that type). Two keys that collide
 * share their functions: more targets, never fewer. */
static uint64_t key_global(uint32_t var) { return base_hash64(0x61ull << 40 | var) | 1u; }

/* The field of a record type as a store key sees it: every member of a
 * union is one field (they overlap; a link flag stays). */
static uint32_t member_field(const ir_type *rec, uint32_t field)
{
    return rec && rec->kind == IR_T_UNION ? field & DL_FIELD_LINK : field;
}

static uint64_t key_field(dl_ctx *c, const ir_type *rec, uint64_t field)
{
    rec = dl_canon_type(c, rec);
    field = member_field(rec, (uint32_t)field);
    return base_hash64((uint64_t)(uintptr_t)rec ^ (field + 1) * 0x9e3779b97f4a7c15ull) & ~1ull;
}

static bool is_fnptr_type(const ir_type *t)
{
    return t && t->kind == IR_T_PTR && t->to && t->to->kind == IR_T_FUNC;
}

/* The store key of an lvalue (0: none): a global, elements of a global
 * array, a field. */
static uint64_t lvalue_key(dl_ctx *c, const ir_expr *e)
{
    e = strip_casts(e);
    while (e && e->kind == IR_E_INDEX)
        e = strip_casts(e->a);
    if (!e)
        return 0;
    if (e->kind == IR_E_VAR)
        return e->var->kind == IR_V_GLOBAL && !e->var->address_taken ? key_global(e->var->id) : 0;
    if (e->kind == IR_E_FIELD && e->a && e->a->type)
        return key_field(c, e->a->type, e->field);
    return 0;
}

/* The store key of the pointer a path holds (0: none). */
static uint64_t path_key(dl_ctx *c, uint32_t path)
{
    const dl_path *p = &c->paths.data[path];
    while (p->kind == DL_SEL_INDEX || p->kind == DL_SEL_ANY)
        p = &c->paths.data[p->parent];
    if (p->kind == DL_SEL_FIELD && p->b)
        return key_field(c, (const ir_type *)(uintptr_t)p->b, p->a);
    if (p->kind == DL_BASE_GLOBAL && p->parent == DL_NONE &&
        !c->prog->globals[p->a]->address_taken)
        return key_global((uint32_t)p->a);
    return 0;
}

static void fnstore_add(dl_ctx *c, uint64_t key, uint32_t fi)
{
    if (key == BASE_HASHMAP_EMPTY)
        key = 2;
    uint64_t v;
    uint32_t set = base_hashmap_get(&c->fnstores, key, &v) ? (uint32_t)v : c->empty;
    if (set == DL_NONE)
        return;
    base_hashmap_put(&c->fnstores, key, fi == DL_NONE ? DL_NONE : dl_set_add(c, set, fi));
}

/* Whether an lvalue of type t holds function pointers at its top level
 * (a function pointer, or an array of them). */
static bool holds_fnptrs(const ir_type *t)
{
    while (t && t->kind == IR_T_ARRAY)
        t = t->to;
    return is_fnptr_type(t);
}

/* Whether an lvalue is a store of a function pointer: of that type, or
 * another member of a union one of whose members holds one (the bytes
 * overlap: `u.data = (void *)fn` stores fn in u.fn). */
static bool fnptr_store(const ir_expr *lhs)
{
    if (!lhs || !lhs->type)
        return false;
    if (is_fnptr_type(lhs->type))
        return true;
    const ir_expr *e = strip_casts(lhs);
    if (!e || e->kind != IR_E_FIELD || !e->a || !e->a->type || e->a->type->kind != IR_T_UNION ||
        lhs->type->kind == IR_T_STRUCT || lhs->type->kind == IR_T_UNION)
        return false;
    for (uint32_t i = 0; i < e->a->type->nfields; i++)
        if (holds_fnptrs(e->a->type->fields[i].type))
            return true;
    return false;
}

/* Marks the keys whose function pointers have their address taken (&s->f,
 * &g, &arr[i]): only those can be written through a pointer. */
static void mark_escapes(dl_ctx *c, const ir_expr *e)
{
    for (; e; e = e->c) {
        if (e->kind == IR_E_ADDR && e->a && holds_fnptrs(e->a->type)) {
            uint64_t key = lvalue_key(c, e->a);
            if (key) {
                uint64_t n = 0;
                key = key == BASE_HASHMAP_EMPTY ? 2 : key;
                base_hashmap_get(&c->fn_escaped, key, &n);
                base_hashmap_put(&c->fn_escaped, key, n + 1);
            }
        }
        mark_escapes(c, e->a);
        mark_escapes(c, e->b);
    }
}

static uint32_t stored_funcs(dl_ctx *c, uint64_t key, const ir_type *ft);
static uint32_t with_unkeyed(dl_ctx *c, uint64_t key, uint32_t set, const ir_type *ft);
static void fo_build(dl_ctx *c);
static uint32_t arg_funcs(dl_ctx *c, const ir_func *g, const ir_expr *arg, unsigned depth);

/* Whether parameter pi of f is assigned in f's body (then its value at a
 * call is not its value on entry). */
static bool param_assigned(const ir_func *f, uint32_t pi)
{
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_expr *l = f->stmts[i].lhs;
        if (l && l->kind == IR_E_VAR && l->var->kind == IR_V_PARAM && l->var->id == pi)
            return true;
    }
    return false;
}

/* The functions a parameter may hold on entry, from the arguments of the
 * direct calls of its function: functions, NULL, the callers' own
 * parameters in turn, and reads of globals and fields whose stores are
 * known (DL_NONE: not known: the function is an entry point or used as a
 * value, so calls through pointers may pass anything, or an argument is
 * something else). */
static uint32_t param_funcs(dl_ctx *c, const ir_func *f, uint32_t pi, unsigned depth)
{
    uint32_t fi = dl_func_index(c, f);
    if (fi == DL_NONE || f->address_taken || depth > 8 || f->is_main ||
        (c->opts->entry == DEADLOCK_ENTRY_ALL && f->external_linkage) ||
        c->fn_callsites[fi].len == 0 || param_assigned(f, pi))
        return DL_NONE; /* an entry point's parameters come from outside */
    uint32_t acc = c->empty;
    const dl_callsites *cs = &c->fn_callsites[fi];
    for (uint32_t k = 0; k < cs->len; k++) {
        const ir_func *g = c->prog->funcs[cs->data[k].caller];
        const ir_stmt *s = &g->stmts[cs->data[k].stmt];
        if (s->kind != IR_S_CALL || pi >= s->nargs)
            return DL_NONE;
        uint32_t fs = arg_funcs(c, g, s->args[pi], depth);
        if (fs == DL_NONE)
            return DL_NONE;
        acc = dl_set_union(c, acc, fs);
    }
    return acc;
}

/* The functions an argument of a call in g may be: a function, NULL, g's
 * own parameter in turn, a read of a global or a field whose stores are
 * known (DL_NONE: not known). */
static uint32_t arg_funcs(dl_ctx *c, const ir_func *g, const ir_expr *arg, unsigned depth)
{
    const ir_expr *r = strip_casts(arg);
    int64_t v;
    if (r->kind == IR_E_FUNC && dl_func_index(c, r->func) != DL_NONE)
        return dl_set(c, (uint32_t[]){ dl_func_index(c, r->func) }, 1);
    if (const_value(r, &v) && v == 0)
        return c->empty;
    if (r->kind == IR_E_VAR && r->var->kind == IR_V_PARAM && !r->var->address_taken)
        return param_funcs(c, g, r->var->id, depth + 1);
    if (is_fnptr_type(r->type) && (r->kind == IR_E_VAR || r->kind == IR_E_FIELD ||
                                   r->kind == IR_E_INDEX))
        return stored_funcs(c, lvalue_key(c, r), r->type->to);
    return DL_NONE;
}

/* A store of a parameter's value under a key. */
typedef struct pstore { uint64_t key; const ir_func *f; uint32_t param; } pstore;

static uint32_t fnstore_get(dl_ctx *c, uint64_t key)
{
    uint64_t v;
    return base_hashmap_get(&c->fnstores, key == BASE_HASHMAP_EMPTY ? 2 : key, &v) ? (uint32_t)v : c->empty;
}

/* The stores of parameters: to a fixpoint, each key gets the functions
 * its parameters may hold (which may read keys filled so); a store whose
 * parameter is not known at the fixpoint makes its key unknown, and the
 * rest is redone with that (both only grow, so this ends). */
static void resolve_param_stores(dl_ctx *c, const pstore *ps, size_t n)
{
    for (bool poisoned = true; poisoned;) {
        poisoned = false;
        bool changed = true;
        for (unsigned round = 0; changed; round++) {
            changed = false;
            for (size_t i = 0; i < n; i++) {
                uint32_t cur = fnstore_get(c, ps[i].key);
                if (cur == DL_NONE)
                    continue;
                uint32_t fs = round > 64 ? DL_NONE : param_funcs(c, ps[i].f, ps[i].param, 0);
                if (fs == DL_NONE) {
                    if (round > 64) {
                        fnstore_add(c, ps[i].key, DL_NONE);
                        poisoned = true;
                    }
                    continue;
                }
                for (uint32_t j = 0; j < dl_set_len(c, fs); j++)
                    if (!dl_set_has(c, cur, dl_set_data(c, fs)[j])) {
                        fnstore_add(c, ps[i].key, dl_set_data(c, fs)[j]);
                        cur = fnstore_get(c, ps[i].key);
                        changed = true;
                    }
            }
        }
        for (size_t i = 0; i < n; i++)
            if (fnstore_get(c, ps[i].key) != DL_NONE &&
                param_funcs(c, ps[i].f, ps[i].param, 0) == DL_NONE) {
                fnstore_add(c, ps[i].key, DL_NONE);
                poisoned = true;
            }
    }
}

/* Every store of a function pointer in the program: a function's address
 * (or NULL) under its key; a parameter's value: the functions the direct
 * calls of its function pass (when that is all they can pass); anything
 * else (a call's result, a read) makes the key unknown. A store with no key
 * (through a pointer to the pointer) can only reach the keys whose address
 * is taken (escaped): a known function stored so joins their functions
 * (where its type fits the call), anything else makes their function type
 * unknown. */
static void build_fnstores(dl_ctx *c)
{
    c->fnstores_done = true;
    const ir_program *p = c->prog;
    c->fn_unkeyed_funcs = c->empty;
    c->fn_callsites = base_xcalloc(p->nfuncs + 1, sizeof *c->fn_callsites);
    BASE_VEC(pstore) pending = { 0 };
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            mark_escapes(c, s->lhs);
            mark_escapes(c, s->rhs);
            mark_escapes(c, s->callee);
            for (uint32_t k = 0; k < s->nargs; k++) {
                mark_escapes(c, s->args[k]);
                const ir_expr *x = s->kind == IR_S_CALL ? strip_casts(s->args[k]) : NULL;
                uint64_t key = x && x->kind == IR_E_ADDR && x->a && holds_fnptrs(x->a->type)
                               ? lvalue_key(c, x->a) : 0;
                if (key) {
                    uint64_t n = 0;
                    key = key == BASE_HASHMAP_EMPTY ? 2 : key;
                    base_hashmap_get(&c->fn_esc_arg, key, &n);
                    base_hashmap_put(&c->fn_esc_arg, key, n + 1);
                }
            }
            if (s->callee && s->callee->kind == IR_E_FUNC) {
                uint32_t gi = dl_func_index(c, s->callee->func);
                if (gi != DL_NONE) {
                    dl_callsite site = { fi, i };
                    base_vec_push(&c->fn_callsites[gi], site);
                }
            } else if (s->callee)
                base_hashmap_put(&c->fn_stmt_func, (uint64_t)(uintptr_t)s, fi);
        }
    }
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (!fnptr_store(s->lhs) ||
                (s->lhs->kind == IR_E_VAR && s->lhs->var->kind != IR_V_GLOBAL))
                continue;
            const ir_expr *r = s->kind == IR_S_ASSIGN ? strip_casts(s->rhs) : NULL;
            bool known = r && r->kind == IR_E_FUNC && dl_func_index(c, r->func) != DL_NONE;
            int64_t k;
            bool null = r && const_value(r, &k) && k == 0;
            uint64_t key = lvalue_key(c, s->lhs);
            if (!key) {
                if (known)
                    c->fn_unkeyed_funcs = dl_set_add(c, c->fn_unkeyed_funcs, dl_func_index(c, r->func));
                else if (!null)
                    base_vec_push(&c->fn_unkeyed, s->lhs->type->to);
                continue;
            }
            if (known)
                fnstore_add(c, key, dl_func_index(c, r->func));
            else if (r && r->kind == IR_E_VAR && r->var->kind == IR_V_PARAM && !r->var->address_taken) {
                pstore ps = { key, f, r->var->id };
                base_vec_push(&pending, ps);
            } else if (!null)
                fnstore_add(c, key, DL_NONE);
        }
    }
    resolve_param_stores(c, pending.data, pending.len);
    base_vec_free(&pending);
    fo_build(c);
}

static bool type_class_eq(const ir_type *x, const ir_type *y);

/* The functions stored under the key, when only known functions are
 * stored there and no store without a key may have stored a function of
 * the call's type (DL_NONE: not known). */
static uint32_t outparam_funcs(dl_ctx *c, uint64_t key);

static uint32_t stored_funcs(dl_ctx *c, uint64_t key, const ir_type *ft)
{
    if (!c->fnstores_done)
        build_fnstores(c);
    if (key == BASE_HASHMAP_EMPTY)
        key = 2;
    uint64_t v;
    if (key && !base_hashmap_get(&c->fnstores, key, &v) &&
        base_hashmap_get(&c->fn_escaped, key, NULL)) {
        uint32_t o = outparam_funcs(c, key); /* stored only through pointers */
        return o != DL_NONE && dl_set_len(c, o) > 0 ? o : DL_NONE;
    }
    if (!key || !base_hashmap_get(&c->fnstores, key, &v) || (uint32_t)v == DL_NONE ||
        dl_set_len(c, (uint32_t)v) == 0)
        return DL_NONE;
    return with_unkeyed(c, key, (uint32_t)v, ft);
}

/* The functions set, stored under key, joined with those the stores with
 * no key may have put there (when the key's address is taken; DL_NONE:
 * some such store is not known). */
static uint32_t with_unkeyed(dl_ctx *c, uint64_t key, uint32_t set, const ir_type *ft)
{
    if (key == BASE_HASHMAP_EMPTY)
        key = 2;
    if (!base_hashmap_get(&c->fn_escaped, key, NULL))
        return set;
    uint32_t o = outparam_funcs(c, key);
    if (o != DL_NONE)
        return dl_set_union(c, set, o);
    for (size_t i = 0; i < c->fn_unkeyed.len; i++)
        if (!ft || type_class_eq(c->fn_unkeyed.data[i], ft))
            return DL_NONE;
    uint32_t acc = set;
    for (uint32_t i = 0; i < dl_set_len(c, c->fn_unkeyed_funcs); i++) {
        uint32_t g = dl_set_data(c, c->fn_unkeyed_funcs)[i];
        if (fn_type_fits(ft, c->prog->funcs[g]))
            acc = dl_set_add(c, acc, g);
    }
    return acc;
}

/* The function type a call through a pointer has (NULL: unknown). */
static const ir_type *call_fn_type(const ir_stmt *s)
{
    const ir_type *ft = NULL;
    if (s->callee) {
        const ir_expr *e = strip_casts(s->callee);
        ft = e->type;
        if (ft && ft->kind == IR_T_PTR)
            ft = ft->to;
        if (ft && ft->kind != IR_T_FUNC)
            ft = NULL;
    }
    return ft;
}

/* --- functions written through an out-parameter, by the name asked ---
 *
 * A field whose address is taken only as calls' arguments (`&m->exit` in
 * `q("exit", &m->exit)`) holds, besides its keyed stores, what the
 * functions those calls may reach write through that parameter. A
 * callee whose parameter is used only as `*p` (stores of a function or
 * NULL, reads) and in comparisons contributes its stores, except one made
 * only where `strcmp(name, "lit")` (or strcasecmp) returned 0 for a fixed
 * parameter name, at a call passing a different string literal for name.
 * Anything else (another use of the address, a callee with no body or
 * another use of the parameter, a store of something else) is not known. */

static bool is_param(const ir_expr *e, uint32_t k)
{
    e = strip_casts(e);
    return e && e->kind == IR_E_VAR && e->var->kind == IR_V_PARAM && e->var->id == k;
}

/* Whether two strings differ ignoring ASCII case. */
static bool lit_neq_nocase(const char *x, const char *y)
{
    for (; *x && *y; x++, y++) {
        char a = *x >= 'A' && *x <= 'Z' ? (char)(*x - 'A' + 'a') : *x;
        char b = *y >= 'A' && *y <= 'Z' ? (char)(*y - 'A' + 'a') : *y;
        if (a != b)
            return true;
    }
    return *x != *y;
}

/* Whether parameter k appears in e only as *k, or compared. */
static bool outp_uses_ok(const ir_expr *e, uint32_t k, unsigned depth)
{
    if (!e)
        return true;
    if (depth > 64)
        return false;
    if (e->kind == IR_E_VAR)
        return !is_param(e, k);
    if (e->kind == IR_E_DEREF && is_param(e->a, k))
        return true;
    if (e->kind == IR_E_BINARY && e->op >= IR_OP_EQ && e->op <= IR_OP_GE)
        return (is_param(e->a, k) || outp_uses_ok(e->a, k, depth + 1)) &&
               (is_param(e->b, k) || outp_uses_ok(e->b, k, depth + 1));
    return outp_uses_ok(e->a, k, depth + 1) && outp_uses_ok(e->b, k, depth + 1) &&
           outp_uses_ok(e->c, k, depth + 1);
}

/* The literal statement j of h is made under: j is reached only through
 * the branch of `t = strcmp(Q, "lit"); if (t) goto ...` (or `if (!(t == 0))`)
 * where t is 0, Q fixed parameter *q of h (NULL: none). */
static const char *outp_guard(const ir_program *p, const ir_func *h, const bool *target, uint32_t j, uint32_t *q,
                              bool *nocase)
{
    uint32_t i = j;
    for (;; i--) {
        if (i < 2 || target[i])
            return NULL;
        const ir_stmt *b = &h->stmts[i - 1];
        if (b->kind == IR_S_RETURN || (b->kind == IR_S_GOTO && !b->rhs))
            return NULL;
        if (b->kind == IR_S_GOTO)
            break;
    }
    const ir_stmt *b = &h->stmts[i - 1], *s = &h->stmts[i - 2];
    if (target[i - 1] || b->ntargets != 1 || s->kind != IR_S_CALL || !s->lhs || s->nargs != 2 ||
        !s->callee || s->callee->kind != IR_E_FUNC || s->callee->func->has_body)
        return NULL; /* the C library's strcmp, not one of the program's */
    const ir_expr *t = strip_casts(s->lhs), *g = b->rhs;
    if (t->kind != IR_E_VAR || t->var->kind != IR_V_LOCAL || t->var->address_taken)
        return NULL;
    if (g->kind == IR_E_UNARY && g->op == IR_OP_LNOT && g->a && g->a->kind == IR_E_BINARY &&
        g->a->op == IR_OP_EQ) {
        const ir_expr *z = strip_casts(g->a->b);
        if (!z || z->kind != IR_E_CONST || z->value != 0)
            return NULL;
        g = g->a->a;
    } else if (g->kind == IR_E_BINARY && g->op == IR_OP_NE) {
        const ir_expr *z = strip_casts(g->b);
        if (!z || z->kind != IR_E_CONST || z->value != 0)
            return NULL;
        g = g->a;
    }
    g = strip_casts(g);
    if (!g || g->kind != IR_E_VAR || g->var != t->var)
        return NULL;
    const char *n = base_sym_str(p->syms, s->callee->func->name);
    *nocase = strcmp(n, "strcasecmp") == 0;
    if (!*nocase && strcmp(n, "strcmp") != 0)
        return NULL;
    const ir_expr *x = strip_casts(s->args[0]), *y = strip_casts(s->args[1]);
    if (x->kind == IR_E_STRING) {
        const ir_expr *w = x;
        x = y;
        y = w;
    }
    if (y->kind != IR_E_STRING || !y->string || x->kind != IR_E_VAR ||
        x->var->kind != IR_V_PARAM || x->var->address_taken || param_assigned(h, x->var->id))
        return NULL;
    *q = x->var->id;
    return y->string;
}

/* Adds to *acc what h writes through its parameter k at call site s
 * (false: not known). */
static bool outp_callee(dl_ctx *c, const ir_func *h, uint32_t k, const ir_stmt *site,
                        uint32_t *acc)
{
    if (!h->has_body || k >= h->nparams || h->params[k]->address_taken || param_assigned(h, k))
        return false;
    bool *target = base_xcalloc(h->nstmts + 1, sizeof *target);
    for (uint32_t i = 0; i < h->nstmts; i++)
        for (uint32_t t = 0; h->stmts[i].kind == IR_S_GOTO && t < h->stmts[i].ntargets; t++)
            if (h->stmts[i].targets[t] <= h->nstmts)
                target[h->stmts[i].targets[t]] = true;
    bool ok = true;
    for (uint32_t i = 0; i < h->nstmts && ok; i++) {
        const ir_stmt *s = &h->stmts[i];
        const ir_expr *l = s->lhs ? strip_casts(s->lhs) : NULL;
        if (l && l->kind == IR_E_DEREF && is_param(l->a, k)) {
            const ir_expr *r = s->kind == IR_S_ASSIGN ? strip_casts(s->rhs) : NULL;
            int64_t v;
            if (r && r->kind == IR_E_FUNC && dl_func_index(c, r->func) != DL_NONE) {
                uint32_t q;
                bool nocase;
                const char *lit = outp_guard(c->prog, h, target, i, &q, &nocase);
                const ir_expr *a = lit && q < site->nargs ? strip_casts(site->args[q]) : NULL;
                if (!a || a->kind != IR_E_STRING || !a->string ||
                    (nocase ? !lit_neq_nocase(a->string, lit) : strcmp(a->string, lit) == 0))
                    *acc = dl_set_add(c, *acc, dl_func_index(c, r->func));
            } else if (!r || !const_value(r, &v) || v != 0)
                ok = false;
        } else
            ok = outp_uses_ok(s->lhs, k, 0);
        ok = ok && outp_uses_ok(s->rhs, k, 0) && outp_uses_ok(s->callee, k, 0);
        for (uint32_t a = 0; a < s->nargs && ok; a++)
            ok = outp_uses_ok(s->args[a], k, 0);
    }
    free(target);
    return ok;
}

/* What the calls that take key's address write there (DL_NONE: not
 * known), memoised. */
static uint32_t outparam_funcs(dl_ctx *c, uint64_t key)
{
    uint64_t n = 0, na = 0, v;
    if (base_hashmap_get(&c->fn_outp, key, &v))
        return (uint32_t)v;
    base_hashmap_get(&c->fn_escaped, key, &n);
    base_hashmap_get(&c->fn_esc_arg, key, &na);
    const ir_program *p = c->prog;
    uint32_t acc = n == 0 || n != na ? DL_NONE : c->empty;
    for (uint32_t fi = 0; fi < p->nfuncs && acc != DL_NONE; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts && acc != DL_NONE; i++) {
            const ir_stmt *s = &f->stmts[i];
            for (uint32_t k = 0; s->kind == IR_S_CALL && k < s->nargs && acc != DL_NONE; k++) {
                const ir_expr *x = strip_casts(s->args[k]);
                if (x->kind != IR_E_ADDR || !x->a || !holds_fnptrs(x->a->type))
                    continue;
                uint64_t xk = lvalue_key(c, x->a);
                if ((xk == BASE_HASHMAP_EMPTY ? 2 : xk) != key)
                    continue;
                if (s->callee && s->callee->kind == IR_E_FUNC) {
                    if (!outp_callee(c, s->callee->func, k, s, &acc))
                        acc = DL_NONE;
                    continue;
                }
                const ir_type *ft = call_fn_type(s);
                if (s->ncands == 0)
                    acc = DL_NONE;
                for (uint32_t j = 0; j < s->ncands && acc != DL_NONE; j++)
                    if (cand_fits(s, ft, s->cands[j]) && !outp_callee(c, s->cands[j], k, s, &acc))
                        acc = DL_NONE;
            }
        }
    }
    base_hashmap_put(&c->fn_outp, key, acc);
    return acc;
}



/* --- function pointers stored per object (field chains) ---
 *
 * A store `X.a.b.f = fn` is kept under its object's chain (root X, fields
 * a, b, f), not only under the field f of its record type: a call through
 * `Y.a.b.f` then reaches what was stored in objects that may be Y's. Two
 * chains may name one object when their roots may be one object and one
 * chain ends with the other: a chain rooted at any object of a record
 * type (OB_ANY) matches every chain it is a suffix of and every chain that
 * is a suffix of it; one rooted at a global matches the same global's and
 * the OB_ANY chains that are its suffixes. A store through a fixed
 * parameter (`p->f = fn` in llInit(p, fn)) is instantiated at each call
 * site on the argument's object, recursively through the callers'
 * parameters (bounded); where the callers are not all known it is a store
 * to any object. A record type copied whole (assignment, memcpy) makes the
 * chains through it fall back to any object of it. Only an over-
 * approximation is ever dropped: each store is kept under a chain that
 * matches every chain naming its object. */

static uint64_t chain_key(dl_ctx *c, bool global, uint32_t root, const dl_chain *ch, uint32_t from)
{
    uint64_t h = base_hash64(0x6f626a00ull ^ (global ? (uint64_t)root + 1 : 0));
    for (uint32_t i = from; i < ch->n; i++)
        h = base_hash64(h ^ (ch->rec[i] ? key_field(c, ch->rec[i], ch->field[i]) : 0x657363ull ^ ch->field[i]));
    return h == BASE_HASHMAP_EMPTY ? 2 : h;
}

static bool chain_eq(const dl_chain *x, const dl_chain *y)
{
    if (x->n != y->n)
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        if (x->rec[i] != y->rec[i] || x->field[i] != y->field[i])
            return false;
    return true;
}

/* The chain of fields collected innermost first (rr, ff, m of them): the
 * last DL_CHAIN_MAX; a longer one loses its root. */
static void chain_from_rev(dl_chain *ch, dl_ob_kind k, uint32_t root, const ir_type *const *rr,
                           const uint32_t *ff, uint32_t m)
{
    ch->n = m < DL_CHAIN_MAX ? m : DL_CHAIN_MAX;
    ch->kind = m > DL_CHAIN_MAX ? DL_OB_ANY : k;
    ch->root = root;
    for (uint32_t i = 0; i < ch->n; i++) {
        ch->rec[i] = rr[ch->n - 1 - i];
        ch->field[i] = ff[ch->n - 1 - i];
    }
}

/* ch followed by tail (the fields of the object ch's last field holds, or
 * of ch's root when ch has none); too long: its last DL_CHAIN_MAX, any root. */
static void chain_append(dl_chain *ch, const dl_chain *tail)
{
    uint32_t n = ch->n + tail->n, drop = n > DL_CHAIN_MAX ? n - DL_CHAIN_MAX : 0;
    const ir_type *rr[2 * DL_CHAIN_MAX];
    uint32_t ff[2 * DL_CHAIN_MAX];
    for (uint32_t i = 0; i < ch->n; i++)
        rr[i] = ch->rec[i], ff[i] = ch->field[i];
    for (uint32_t i = 0; i < tail->n; i++)
        rr[ch->n + i] = tail->rec[i], ff[ch->n + i] = tail->field[i];
    ch->n = n - drop;
    for (uint32_t i = 0; i < ch->n; i++)
        ch->rec[i] = rr[drop + i], ch->field[i] = ff[drop + i];
    if (drop)
        ch->kind = DL_OB_ANY;
}

static bool callers_known(dl_ctx *c, const ir_func *f, unsigned depth);

/* --- objects a constructor returns (pointer fields followed) ---
 *
 * A constructor is a function whose callers are all known direct calls,
 * every return of which returns NULL or one of its allocations (through
 * local copies). Its stores through a local that holds only NULL or the
 * allocations it returns (`t->dest = dest` in table_new) are not made to any object of the type:
 * they are made at each call site, to where the result is put. A pointer
 * field F is followed (its class of fields is tracked) when every store to
 * F (and to the fields copied into F, which join F's class) stores NULL, a
 * constructor's result or another tracked field's value, through local
 * copies, and F's address is never taken. The object F points to is then a
 * chain element of its own (a link: F's class | DL_FIELD_LINK), and a
 * constructor's stores are instantiated on the chain of each field store of
 * its result (`reg.conns = c` with `c = table_new(drop)`: drop in the
 * `conns` link's `dest`). Every object in a tracked field got there by such
 * a store, so a call through `reg.conns->dest` sees every function stored
 * in it; each call site also stores its functions under an escape element
 * (DL_FIELD_ESC, never a query's) so that calls through the objects the
 * chains do not follow (a local, an untracked field) still see them
 * (fo_cover keeps every suffix). A field that is not tracked, or a
 * function that is not a constructor, keeps the stores of any object of
 * the type. A constructor may also hand its allocation out through a
 * parameter pp used only as `*pp = v` (v NULL or its allocations): fo_ctor
 * then maps it to pp's index + 2 (1: a returned constructor), and a call
 * of it with `&F` as that argument counts as a store of its result into F
 * (followed_store), the only way F's address may be taken. */

#define ORG_NULL 1u
#define ORG_ALLOC 2u
#define ORG_SITE 4u
#define ORG_UNKNOWN 8u
#define ORG_MAX 8

/* Where the values of an expression come from, within one function. */
typedef struct org {
    unsigned kinds;
    uint32_t nsites, ncls, nallocs;
    uint32_t sites[ORG_MAX]; /* constructor calls (statement indices) */
    uint32_t allocs[ORG_MAX]; /* allocations (statement indices) */
    uint32_t cls[ORG_MAX];   /* field classes read */
    uint8_t *seen;           /* per local id */
    uint32_t nseen;
} org;

static uint32_t fc_root(const dl_ctx *c, uint32_t i)
{
    while (c->fo_fc.data[i].parent != i)
        i = c->fo_fc.data[i].parent;
    return i;
}

/* The class of pointer field (rec, field) (make: a new one; DL_NONE: none). */
static uint32_t fc_of(dl_ctx *c, const ir_type *rec, uint32_t field, bool make)
{
    rec = dl_canon_type(c, rec);
    uint64_t key = key_field(c, rec, field), v;
    if (base_hashmap_get(&c->fo_fc_index, key, &v))
        return fc_root(c, (uint32_t)v);
    if (!make)
        return DL_NONE;
    dl_fclass fc = { rec, field, (uint32_t)c->fo_fc.len, false };
    base_vec_push(&c->fo_fc, fc);
    base_hashmap_put(&c->fo_fc_index, key, fc.parent);
    return fc.parent;
}

static bool is_record(const ir_type *t)
{
    return t && (t->kind == IR_T_STRUCT || t->kind == IR_T_UNION);
}

/* The class of the pointer field an lvalue is (DL_NONE: not one). */
static uint32_t fc_of_lvalue(dl_ctx *c, const ir_expr *e, bool make)
{
    e = strip_casts(e);
    if (!e || e->kind != IR_E_FIELD || !e->a || !is_record(e->a->type) || !e->type ||
        e->type->kind != IR_T_PTR || is_fnptr_type(e->type))
        return DL_NONE;
    return fc_of(c, e->a->type, e->field, make);
}

/* Whether pointer field (rec, field) is followed; then its link element. */
static bool fc_link(dl_ctx *c, const ir_type *rec, uint32_t field, const ir_type **lrec, uint32_t *lfield)
{
    if (c->fo_fc.len == 0 || !is_record(rec))
        return false;
    uint32_t k = fc_of(c, rec, field, false);
    if (k == DL_NONE || c->fo_fc.data[k].untracked)
        return false;
    *lrec = c->fo_fc.data[k].rec;
    *lfield = c->fo_fc.data[k].field | DL_FIELD_LINK;
    return true;
}

static bool is_param_var(const ir_expr *e, uint32_t pi)
{
    e = strip_casts(e);
    return e && e->kind == IR_E_VAR && e->var->kind == IR_V_PARAM && e->var->id == pi;
}

/* The occurrences of parameter pi in e. */
static uint32_t param_uses(const ir_expr *e, uint32_t pi, unsigned depth)
{
    if (!e)
        return 0;
    if (depth > 64)
        return 1000000; /* too deep to tell: counts as another use */
    return (e->kind == IR_E_VAR && e->var->kind == IR_V_PARAM && e->var->id == pi) +
           param_uses(e->a, pi, depth + 1) + param_uses(e->b, pi, depth + 1) +
           param_uses(e->c, pi, depth + 1);
}

static bool is_ctor(const dl_ctx *c, const ir_func *g)
{
    uint32_t gi = dl_func_index((dl_ctx *)c, g);
    uint64_t v = 0;
    return gi != DL_NONE && base_hashmap_get(&c->fo_ctor, (uint64_t)gi + 1, &v) && v == 1;
}

/* The out-parameter of constructor g (`*pp = q`), or DL_NONE. */
static uint32_t octor_param(const dl_ctx *c, const ir_func *g)
{
    uint32_t gi = dl_func_index((dl_ctx *)c, g);
    uint64_t v = 0;
    return gi != DL_NONE && base_hashmap_get(&c->fo_ctor, (uint64_t)gi + 1, &v) && v >= 2
               ? (uint32_t)(v - 2) : DL_NONE;
}

/* The pointer field whose address is argument op of call s to an
 * out-parameter constructor (`&a->q`: a->q), or NULL. */
static const ir_expr *octor_field(dl_ctx *c, const ir_stmt *s, bool make)
{
    if (s->kind != IR_S_CALL || !s->callee || s->callee->kind != IR_E_FUNC)
        return NULL;
    uint32_t op = octor_param(c, s->callee->func);
    if (op == DL_NONE || op >= s->nargs)
        return NULL;
    const ir_expr *a = strip_casts(s->args[op]);
    if (!a || a->kind != IR_E_ADDR || fc_of_lvalue(c, a->a, make) == DL_NONE)
        return NULL;
    return strip_casts(a->a);
}

static void org_add(uint32_t *arr, uint32_t *n, uint32_t x, org *o)
{
    for (uint32_t i = 0; i < *n; i++)
        if (arr[i] == x)
            return;
    if (*n == ORG_MAX)
        o->kinds |= ORG_UNKNOWN;
    else
        arr[(*n)++] = x;
}

static void org_of(dl_ctx *c, const ir_func *f, const ir_expr *e, org *o, bool ctors, unsigned depth);

/* What statement i of f stores in its lhs. */
static void org_of_stmt(dl_ctx *c, const ir_func *f, uint32_t i, org *o, bool ctors, unsigned depth)
{
    const ir_stmt *s = &f->stmts[i];
    if (s->kind == IR_S_ASSIGN && s->rhs)
        org_of(c, f, s->rhs, o, ctors, depth + 1);
    else if (s->kind == IR_S_ALLOC) {
        o->kinds |= ORG_ALLOC;
        org_add(o->allocs, &o->nallocs, i, o);
    }
    else if (ctors && s->kind == IR_S_CALL && s->callee && s->callee->kind == IR_E_FUNC &&
             is_ctor(c, s->callee->func)) {
        o->kinds |= ORG_SITE;
        org_add(o->sites, &o->nsites, i, o);
    } else
        o->kinds |= ORG_UNKNOWN;
}

static void org_of(dl_ctx *c, const ir_func *f, const ir_expr *e, org *o, bool ctors, unsigned depth)
{
    e = strip_casts(e);
    int64_t k;
    if (!e || depth > 32) {
        o->kinds |= ORG_UNKNOWN;
    } else if (const_value(e, &k) && k == 0) {
        o->kinds |= ORG_NULL;
    } else if (e->kind == IR_E_ITE) {
        org_of(c, f, e->b, o, ctors, depth + 1);
        org_of(c, f, e->c, o, ctors, depth + 1);
    } else if (e->kind == IR_E_VAR && e->var->kind == IR_V_LOCAL && !e->var->address_taken &&
               e->var->id < o->nseen) {
        if (o->seen[e->var->id])
            return;
        o->seen[e->var->id] = 1;
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_expr *l = strip_casts(f->stmts[i].lhs);
            if (l && l->kind == IR_E_VAR && l->var == e->var)
                org_of_stmt(c, f, i, o, ctors, depth);
        }
    } else {
        uint32_t cl = ctors ? fc_of_lvalue(c, e, true) : DL_NONE;
        if (cl != DL_NONE)
            org_add(o->cls, &o->ncls, cl, o);
        else
            o->kinds |= ORG_UNKNOWN;
    }
}

static void org_init(org *o, const ir_func *f)
{
    memset(o, 0, sizeof *o);
    o->nseen = f->nlocals + f->nparams + 1;
    o->seen = base_xcalloc(o->nseen, 1);
}

/* Whether local v of constructor f holds only NULL or the allocations f
 * returns. */
static bool fresh_local(dl_ctx *c, const ir_func *f, const ir_var *v)
{
    if (v->kind != IR_V_LOCAL)
        return false;
    org o, r;
    org_init(&o, f);
    org_init(&r, f);
    ir_expr e = { .kind = IR_E_VAR, .type = v->type, .var = v };
    org_of(c, f, &e, &o, false, 0);
    uint32_t op = octor_param(c, f);
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        const ir_expr *l = strip_casts(s->lhs);
        if (op == DL_NONE ? s->kind == IR_S_RETURN && s->rhs
                          : s->kind == IR_S_ASSIGN && s->rhs && l && l->kind == IR_E_DEREF &&
                                is_param_var(l->a, op))
            org_of(c, f, s->rhs, &r, false, 0);
    }
    bool ok = (o.kinds & ORG_ALLOC) && !(o.kinds & ~(ORG_ALLOC | ORG_NULL));
    for (uint32_t i = 0; i < o.nallocs && ok; i++) {
        ok = false;
        for (uint32_t j = 0; j < r.nallocs; j++)
            ok = ok || r.allocs[j] == o.allocs[i];
    }
    free(o.seen);
    free(r.seen);
    return ok;
}

/* The local a store's lvalue is reached through (`t->a.dest`: t), or NULL. */
static const ir_var *store_root_local(const ir_expr *e)
{
    for (e = strip_casts(e); e && (e->kind == IR_E_FIELD ||
                                   (e->kind == IR_E_INDEX && e->a && e->a->type &&
                                    e->a->type->kind == IR_T_ARRAY));)
        e = strip_casts(e->a);
    if (!e || e->kind != IR_E_DEREF)
        return NULL;
    e = strip_casts(e->a);
    return e && e->kind == IR_E_VAR && e->var->kind == IR_V_LOCAL ? e->var : NULL;
}

static void fc_untrack_addrs(dl_ctx *c, const ir_expr *e, unsigned depth)
{
    if (!e || depth > 64)
        return;
    if (e->kind == IR_E_ADDR && e->a) {
        const ir_expr *x = strip_casts(e->a);
        if (x && x->kind == IR_E_FIELD && x->a && is_record(x->a->type) && x->type &&
            x->type->kind == IR_T_PTR) {
            uint32_t k = fc_of(c, x->a->type, x->field, true);
            c->fo_fc.data[k].untracked = true;
        }
    }
    fc_untrack_addrs(c, e->a, depth + 1);
    fc_untrack_addrs(c, e->b, depth + 1);
    fc_untrack_addrs(c, e->c, depth + 1);
}

/* The out-parameter of f (DL_NONE: none): a parameter pp to a pointer
 * that the body never assigns and uses only as `*pp = v` with v NULL or
 * f's allocations (through locals). */
static uint32_t outparam_of(dl_ctx *c, const ir_func *f)
{
    for (uint32_t pi = 0; pi < f->nparams; pi++) {
        const ir_var *v = f->params[pi];
        if (!v || v->id != pi || v->address_taken || !v->type || v->type->kind != IR_T_PTR ||
            !v->type->to || v->type->to->kind != IR_T_PTR || is_fnptr_type(v->type->to) ||
            param_assigned(f, pi))
            continue;
        bool ok = true, stored = false;
        for (uint32_t i = 0; i < f->nstmts && ok; i++) {
            const ir_stmt *s = &f->stmts[i];
            uint32_t n = param_uses(s->lhs, pi, 0) + param_uses(s->rhs, pi, 0) +
                         param_uses(s->callee, pi, 0);
            for (uint32_t k = 0; k < s->nargs; k++)
                n += param_uses(s->args[k], pi, 0);
            if (n == 0)
                continue;
            const ir_expr *l = strip_casts(s->lhs);
            ok = n == 1 && s->kind == IR_S_ASSIGN && s->rhs && l && l->kind == IR_E_DEREF &&
                 is_param_var(l->a, pi);
            if (ok) {
                org o;
                org_init(&o, f);
                org_of(c, f, s->rhs, &o, false, 0);
                free(o.seen);
                ok = !(o.kinds & ~(ORG_ALLOC | ORG_NULL));
                stored = stored || (o.kinds & ORG_ALLOC);
            }
        }
        if (ok && stored)
            return pi;
    }
    return DL_NONE;
}

/* The constructors, then the classes of pointer fields. */
static void fc_build(dl_ctx *c)
{
    const ir_program *p = c->prog;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        if (!f->has_body || !f->type || !f->type->to || f->type->to->kind != IR_T_PTR ||
            !callers_known(c, f, 0))
            continue;
        bool ok = true;
        org o;
        org_init(&o, f);
        for (uint32_t i = 0; i < f->nstmts && ok; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind == IR_S_RETURN)
                ok = s->rhs != NULL;
            if (s->kind == IR_S_RETURN && ok)
                org_of(c, f, s->rhs, &o, false, 0);
        }
        free(o.seen);
        if (ok && (o.kinds & ORG_ALLOC) && !(o.kinds & ~(ORG_ALLOC | ORG_NULL)))
            base_hashmap_put(&c->fo_ctor, (uint64_t)fi + 1, 1);
    }
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        uint32_t op = f->has_body && !base_hashmap_get(&c->fo_ctor, (uint64_t)fi + 1, NULL) &&
                              callers_known(c, f, 0) ? outparam_of(c, f) : DL_NONE;
        if (op != DL_NONE)
            base_hashmap_put(&c->fo_ctor, (uint64_t)fi + 1, (uint64_t)op + 2);
    }
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            fc_untrack_addrs(c, s->lhs, 0);
            fc_untrack_addrs(c, s->rhs, 0);
            fc_untrack_addrs(c, s->callee, 0);
            const ir_expr *of = octor_field(c, s, true);
            for (uint32_t k = 0; k < s->nargs; k++) /* the out-parameter: a store of a result */
                fc_untrack_addrs(c, of && k == octor_param(c, s->callee->func) ? of->a : s->args[k], 0);
            uint32_t k = s->lhs ? fc_of_lvalue(c, s->lhs, true) : DL_NONE;
            if (k == DL_NONE)
                continue;
            org o;
            org_init(&o, f);
            org_of_stmt(c, f, i, &o, true, 0);
            free(o.seen);
            if (o.kinds & (ORG_ALLOC | ORG_UNKNOWN))
                c->fo_fc.data[k].untracked = true;
            for (uint32_t j = 0; j < o.ncls; j++) {
                uint32_t r = fc_root(c, o.cls[j]);
                k = fc_root(c, k);
                if (r != k) {
                    c->fo_fc.data[r].parent = k;
                    c->fo_fc.data[k].untracked |= c->fo_fc.data[r].untracked;
                }
            }
        }
    }
    for (size_t i = 0; i < c->fo_fc.len; i++) { /* flatten: a query finds its root at once */
        uint32_t r = fc_root(c, (uint32_t)i);
        c->fo_fc.data[r].untracked |= c->fo_fc.data[i].untracked;
    }
    for (size_t i = 0; i < c->fo_fc.len; i++) {
        uint32_t r = fc_root(c, (uint32_t)i);
        c->fo_fc.data[i].parent = r;
        c->fo_fc.data[i].untracked = c->fo_fc.data[r].untracked;
    }
}

/* The chain of an lvalue of function f (NULL: no parameter is fixed). */
static void expr_chain(dl_ctx *c, const ir_func *f, const ir_expr *e, dl_chain *ch)
{
    const ir_type *rr[DL_CHAIN_MAX + 1];
    uint32_t ff[DL_CHAIN_MAX + 1], m = 0, root = 0;
    dl_ob_kind k = DL_OB_ANY;
    for (e = strip_casts(e); e;) {
        if (e->kind == IR_E_FIELD && e->a && e->a->type) {
            if (m <= DL_CHAIN_MAX) {
                rr[m] = dl_canon_type(c, e->a->type);
                ff[m] = member_field(rr[m], e->field);
                m++;
            }
            e = strip_casts(e->a);
        } else if (e->kind == IR_E_INDEX && e->a && e->a->type && e->a->type->kind == IR_T_ARRAY) {
            e = strip_casts(e->a); /* an element of an array object: any of them */
        } else {
            const ir_expr *x = e->kind == IR_E_DEREF && e->a ? strip_casts(e->a) : NULL;
            const ir_type *lr;
            uint32_t lf;
            if (x && x->kind == IR_E_FIELD && x->a && fc_link(c, x->a->type, x->field, &lr, &lf)) {
                if (m <= DL_CHAIN_MAX) { /* the object a followed pointer field points to */
                    rr[m] = lr;
                    ff[m++] = lf;
                }
                e = strip_casts(x->a);
                continue;
            }
            if (x && f && x->kind == IR_E_VAR && x->var->kind == IR_V_PARAM &&
                param_is_fixed(f, x->var->id))
                k = DL_OB_PARAM, root = x->var->id;
            else if (e->kind == IR_E_VAR && e->var->kind == IR_V_GLOBAL)
                k = DL_OB_GLOBAL, root = e->var->id;
            break;
        }
    }
    chain_from_rev(ch, k, root, rr, ff, m);
}

/* The chain of the object at a path (DL_OB_NONE: a path the chains do not
 * follow: a class, a fold, a callee's formal). A parameter's object is
 * what it points to, never an element beside it. */
static void path_chain(dl_ctx *c, uint32_t path, dl_chain *ch)
{
    const ir_type *rr[DL_CHAIN_MAX + 1];
    uint32_t ff[DL_CHAIN_MAX + 1], m = 0, root = 0;
    dl_ob_kind k = DL_OB_NONE;
    bool indexed = false;
    for (uint32_t q = path; q != DL_NONE;) {
        const dl_path *p = &c->paths.data[q];
        if (p->kind == DL_SEL_FIELD && p->b) {
            if (m <= DL_CHAIN_MAX) {
                rr[m] = (const ir_type *)(uintptr_t)p->b;
                ff[m] = member_field(rr[m], (uint32_t)p->a);
                m++;
            }
            indexed = false;
            q = p->parent;
            continue;
        }
        if (p->kind == DL_SEL_INDEX || p->kind == DL_SEL_ANY) {
            indexed = true;
            q = p->parent;
            continue;
        }
        if (p->kind == DL_SEL_DEREF) {
            const dl_path *b = &c->paths.data[p->parent];
            const ir_type *lr;
            uint32_t lf;
            if (b->kind == DL_SEL_FIELD && b->b &&
                fc_link(c, (const ir_type *)(uintptr_t)b->b, (uint32_t)b->a, &lr, &lf)) {
                if (m <= DL_CHAIN_MAX) {
                    rr[m] = lr;
                    ff[m++] = lf;
                }
                indexed = false;
                q = b->parent;
                continue;
            }
            k = b->kind == DL_BASE_PARAM && b->parent == DL_NONE && !indexed ? DL_OB_PARAM : DL_OB_ANY;
            root = (uint32_t)b->a;
        } else if (p->kind == DL_BASE_GLOBAL) {
            k = DL_OB_GLOBAL;
            root = (uint32_t)p->a;
        } else if (p->kind == DL_BASE_LOCAL || p->kind == DL_BASE_PARAM) {
            k = DL_OB_ANY; /* an object of the function's own */
        }
        break;
    }
    chain_from_rev(ch, k, root, rr, ff, m);
    if (k == DL_OB_NONE)
        ch->kind = DL_OB_NONE;
}

static void fo_put(dl_ctx *c, base_hashmap *m, uint64_t key, uint32_t set)
{
    uint64_t v;
    uint32_t cur = base_hashmap_get(m, key, &v) ? (uint32_t)v : c->empty;
    if (cur == DL_NONE)
        return;
    base_hashmap_put(m, key, set == DL_NONE ? DL_NONE : dl_set_union(c, cur, set));
}

static uint32_t fo_val(dl_ctx *c, const base_hashmap *m, uint64_t key, uint32_t acc)
{
    uint64_t v;
    if (acc == DL_NONE || !base_hashmap_get(m, key, &v))
        return acc;
    return (uint32_t)v == DL_NONE ? DL_NONE : dl_set_union(c, acc, (uint32_t)v);
}

/* A store of set (DL_NONE: something not known) to the object of chain ch. */
static void fo_add(dl_ctx *c, const dl_chain *ch, uint32_t set)
{
    if (ch->n == 0 || ch->kind == DL_OB_NONE)
        return;
    c->fo_any = true;
    bool global = ch->kind == DL_OB_GLOBAL;
    fo_put(c, &c->fo_exact, chain_key(c, global, ch->root, ch, 0), set);
    for (uint32_t i = 0; i < ch->n; i++)
        fo_put(c, &c->fo_cover, chain_key(c, false, 0, ch, i), set);
}

static const ir_type *record_of(const ir_type *t)
{
    while (t && (t->kind == IR_T_ARRAY || t->kind == IR_T_PTR))
        t = t->to;
    return t && (t->kind == IR_T_STRUCT || t->kind == IR_T_UNION) ? t : NULL;
}

/* What is stored in the object of chain ch (an OB_GLOBAL or OB_ANY one;
 * DL_NONE: not known), without the stores that have no key. */
static uint32_t fo_lookup(dl_ctx *c, const dl_chain *in)
{
    if (in->n == 0 || (in->kind != DL_OB_ANY && in->kind != DL_OB_GLOBAL))
        return DL_NONE;
    dl_chain ch = *in;
    uint32_t from = 0;
    if (ch.kind == DL_OB_GLOBAL) {
        const ir_type *gt = record_of(c->prog->globals[ch.root]->type);
        if (gt && base_hashmap_get(&c->fo_copied, (uint64_t)(uintptr_t)dl_canon_type(c, gt), NULL))
            ch.kind = DL_OB_ANY;
    }
    for (uint32_t i = ch.n; i-- > 0;)
        if (base_hashmap_get(&c->fo_copied, (uint64_t)(uintptr_t)ch.rec[i], NULL)) {
            from = i;
            ch.kind = DL_OB_ANY;
            break;
        }
    uint32_t acc = c->empty;
    if (ch.kind == DL_OB_ANY) {
        acc = fo_val(c, &c->fo_cover, chain_key(c, false, 0, &ch, from), acc);
        for (uint32_t i = from + 1; i < ch.n; i++)
            acc = fo_val(c, &c->fo_exact, chain_key(c, false, 0, &ch, i), acc);
    } else {
        acc = fo_val(c, &c->fo_exact, chain_key(c, true, ch.root, &ch, 0), acc);
        for (uint32_t i = 0; i < ch.n; i++)
            acc = fo_val(c, &c->fo_exact, chain_key(c, false, 0, &ch, i), acc);
    }
    return acc;
}

/* What may be stored in the object of chain ch (an OB_GLOBAL or OB_ANY
 * one; DL_NONE: not known, or nothing stored there). */
static uint32_t fo_get(dl_ctx *c, const dl_chain *in)
{
    uint32_t acc = fo_lookup(c, in);
    if (acc == DL_NONE || dl_set_len(c, acc) == 0)
        return DL_NONE;
    return with_unkeyed(c, key_field(c, in->rec[in->n - 1], in->field[in->n - 1]), acc, NULL);
}

/* Whether f's callers are all known direct calls (as param_funcs asks). */
static bool callers_known(dl_ctx *c, const ir_func *f, unsigned depth)
{
    uint32_t fi = dl_func_index(c, f);
    return fi != DL_NONE && !f->address_taken && depth <= 8 && !f->is_main &&
           !(c->opts->entry == DEADLOCK_ENTRY_ALL && f->external_linkage) &&
           c->fn_callsites[fi].len > 0;
}

/* A store through fixed parameter p of f, at chain rel below what p
 * points to: the functions of f's parameter vparam (DL_NONE: of vset),
 * instantiated at f's call sites on their arguments' objects. */
static void fo_inst(dl_ctx *c, const ir_func *f, uint32_t p, const dl_chain *rel, uint32_t vparam,
                    uint32_t vset, unsigned depth, unsigned *budget)
{
    dl_chain any = *rel;
    any.kind = DL_OB_ANY;
    if (!callers_known(c, f, depth) || *budget == 0) {
        fo_add(c, &any, vparam != DL_NONE ? param_funcs(c, f, vparam, 0) : vset);
        return;
    }
    --*budget;
    const dl_callsites *cs = &c->fn_callsites[dl_func_index(c, f)];
    for (uint32_t k = 0; k < cs->len; k++) {
        const ir_func *g = c->prog->funcs[cs->data[k].caller];
        const ir_stmt *s = &g->stmts[cs->data[k].stmt];
        bool call = s->kind == IR_S_CALL;
        uint32_t set = vparam == DL_NONE ? vset
                       : call && vparam < s->nargs ? arg_funcs(c, g, s->args[vparam], 0)
                                                   : DL_NONE;
        if (!call || p >= s->nargs) {
            fo_add(c, &any, set);
            continue;
        }
        const ir_expr *x = strip_casts(s->args[p]);
        dl_chain obj = any;
        if (x->kind == IR_E_ADDR && x->a) {
            expr_chain(c, g, x->a, &obj);
            chain_append(&obj, rel);
        } else if (x->kind == IR_E_VAR && x->var->kind == IR_V_PARAM && param_is_fixed(g, x->var->id)) {
            obj.kind = DL_OB_PARAM;
            obj.root = x->var->id;
        }
        if (obj.kind == DL_OB_PARAM)
            fo_inst(c, g, obj.root, &obj, DL_NONE, set, depth + 1, budget);
        else
            fo_add(c, &obj, set);
    }
}

static bool is_copy_func(const ir_program *p, const ir_func *g)
{
    static const char *const names[] = { "memcpy", "memmove", "mempcpy", "bcopy", "__builtin_memcpy",
                                         "__builtin_memmove", "__builtin___memcpy_chk",
                                         "__builtin___memmove_chk", "__memcpy_chk",
                                         "__memmove_chk", "__builtin_mempcpy",
                                         "__builtin___mempcpy_chk" };
    const char *n = base_sym_str(p->syms, g->name);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return false;
}

/* Whether t points to bytes: void *, char *, unsigned char *. */
static bool is_byte_ptr(const ir_type *t)
{
    return t && t->kind == IR_T_PTR && t->to &&
           (t->to->kind == IR_T_VOID || (t->to->kind == IR_T_INT && t->to->bits == 8));
}

/* Whether bodiless g provably neither copies nor keeps the bytes a
 * pointer argument points to (it frees, clears, prints or locks them). */
static bool keeps_no_bytes(const ir_program *p, const ir_func *g)
{
    static const char *const names[] = { "free", "memset", "bzero", "explicit_bzero",
                                         "__builtin_memset", "__builtin___memset_chk",
                                         "__memset_chk", "printf", "fprintf", "snprintf",
                                         "sprintf", "dprintf" };
    if (g->has_body)
        return false;
    const char *n = base_sym_str(p->syms, g->name);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(n, names[i]) == 0)
            return true;
    return strncmp(n, "pthread_", 8) == 0 && strncmp(n, "pthread_create", 14) != 0 &&
           strstr(n, "setspecific") == NULL && strstr(n, "once") == NULL;
}

static bool param_keeps_no_bytes(dl_ctx *c, const ir_func *g, uint32_t pi, unsigned depth);

/* Whether s is a modelled operation (a lock, free, an allocation's size):
 * it neither copies nor keeps its operands' bytes. */
static bool is_op_stmt(const ir_stmt *s)
{
    return s->kind != IR_S_ASSIGN && s->kind != IR_S_CALL && s->kind != IR_S_ASYNC &&
           s->kind != IR_S_RETURN && s->kind != IR_S_THREAD_EXIT;
}

/* Whether the top of e (through conversions) is variable v. */
static bool is_var_via_casts(const ir_expr *e, const ir_var *v)
{
    e = strip_casts(e);
    return e && e->kind == IR_E_VAR && e->var == v;
}

/* Whether every use of pointer variable v in e (used as parent uses it;
 * NULL: as a value) is a conversion to a pointer to a type other than
 * bytes (or to void), or a comparison. */
static bool uses_typed(const ir_expr *e, const ir_var *v, const ir_expr *parent, unsigned depth)
{
    if (!e)
        return true;
    if (depth > 64)
        return false;
    if (e->kind == IR_E_VAR && e->var == v) {
        if (parent && parent->kind == IR_E_CAST && parent->type)
            return parent->type->kind == IR_T_VOID ||
                   (parent->type->kind == IR_T_PTR && !is_byte_ptr(parent->type));
        return parent && ((parent->kind == IR_E_BINARY && parent->op >= IR_OP_EQ &&
                           parent->op <= IR_OP_GE) ||
                          (parent->kind == IR_E_UNARY && parent->op == IR_OP_LNOT));
    }
    return uses_typed(e->a, v, e, depth + 1) && uses_typed(e->b, v, e, depth + 1) &&
           uses_typed(e->c, v, e, depth + 1);
}

/* Whether a call of s (a call or a thread start) provably neither copies
 * nor keeps the bytes its argument k points to as bytes. */
static bool call_keeps_no_bytes(dl_ctx *c, const ir_stmt *s, uint32_t k, unsigned depth)
{
    if (s->callee && s->callee->kind == IR_E_FUNC)
        return param_keeps_no_bytes(c, s->callee->func, k, depth);
    if (!s->callee || s->ncands == 0)
        return false;
    for (uint32_t i = 0; i < s->ncands; i++) /* through a pointer: each candidate */
        if (!param_keeps_no_bytes(c, s->cands[i], k, depth))
            return false;
    return true;
}

/* Whether g provably neither copies nor keeps the bytes its parameter pi
 * points to: a bodiless g on the allow-list, or a body that only converts
 * the parameter to a typed pointer, compares it, or passes it to such a
 * parameter (depth-bounded). */
static bool param_keeps_no_bytes(dl_ctx *c, const ir_func *g, uint32_t pi, unsigned depth)
{
    if (!g->has_body)
        return keeps_no_bytes(c->prog, g);
    if (depth > 3 || pi >= g->nparams || g->params[pi]->address_taken)
        return false;
    const ir_var *v = g->params[pi];
    for (uint32_t i = 0; i < g->nstmts; i++) {
        const ir_stmt *s = &g->stmts[i];
        bool op = is_op_stmt(s); /* free(p), a lock in *p: p as it is */
        if (!(s->lhs && s->lhs->kind == IR_E_VAR) && !(op && is_var_via_casts(s->lhs, v)) &&
            !uses_typed(s->lhs, v, NULL, 0))
            return false;
        if ((!(op && is_var_via_casts(s->rhs, v)) && !uses_typed(s->rhs, v, NULL, 0)) ||
            !uses_typed(s->callee, v, NULL, 0))
            return false;
        for (uint32_t k = 0; k < s->nargs; k++) {
            bool passed = (s->kind == IR_S_CALL || s->kind == IR_S_ASYNC) &&
                          is_var_via_casts(s->args[k], v);
            if (op && is_var_via_casts(s->args[k], v))
                continue;
            if (passed ? !call_keeps_no_bytes(c, s, k, depth + 1) : !uses_typed(s->args[k], v, NULL, 0))
                return false;
        }
    }
    return true;
}

/* Marks the record types whose objects an expression views as bytes (a
 * pointer to one, or to an array of them, converted to void * or char *):
 * those bytes may be copied to another object of the type (memcpy, bcopy,
 * a helper copying through char *, a call through a pointer), so the
 * chains through the type fall back to any object of it. Not so where the
 * conversion is the whole operand (top) of a modelled operation (op), or
 * the whole argument k of a call whose parameter keeps no bytes (call). */
static void mark_byte_views(dl_ctx *c, const ir_expr *e, bool top, bool op, const ir_stmt *call,
                            uint32_t k, unsigned depth)
{
    if (!e || depth > 64)
        return;
    if (e->kind == IR_E_CAST && is_byte_ptr(e->type) && e->a && e->a->type &&
        (e->a->type->kind == IR_T_PTR || e->a->type->kind == IR_T_ARRAY)) {
        const ir_type *t = e->a->type->to;
        while (t && t->kind == IR_T_ARRAY)
            t = t->to;
        if (is_record(t) && !(top && (op || (call && call_keeps_no_bytes(c, call, k, 0)))))
            base_hashmap_put(&c->fo_copied, (uint64_t)(uintptr_t)dl_canon_type(c, t), 1);
    }
    bool keep = top && e->kind == IR_E_CAST;
    mark_byte_views(c, e->a, keep, op, call, k, depth + 1);
    mark_byte_views(c, e->b, false, false, NULL, 0, depth + 1);
    mark_byte_views(c, e->c, false, false, NULL, 0, depth + 1);
}

/* The class of the followed field statement i of g stores to (DL_NONE:
 * none), and in o where the value comes from. */
static uint32_t followed_store(dl_ctx *c, const ir_func *g, uint32_t i, org *o, const ir_expr **lv)
{
    const ir_stmt *s = &g->stmts[i];
    uint32_t cl = s->lhs ? fc_of_lvalue(c, s->lhs, false) : DL_NONE;
    const ir_expr *of = cl == DL_NONE ? octor_field(c, s, false) : NULL;
    *lv = of ? of : s->lhs;
    if (of)
        cl = fc_of_lvalue(c, of, false);
    if (cl == DL_NONE || c->fo_fc.data[cl].untracked)
        return DL_NONE;
    org_init(o, g);
    if (of) { /* an out-parameter constructor's call: its result */
        o->kinds = ORG_SITE;
        o->sites[o->nsites++] = i;
    } else
        org_of_stmt(c, g, i, o, true, 0);
    free(o->seen);
    o->seen = NULL;
    return cl;
}

/* What a constructor's store cs stores at its call site s (in g). */
static uint32_t cstore_set(dl_ctx *c, const dl_cstore *cs, const ir_func *g, const ir_stmt *s)
{
    if (cs->vparam == DL_NONE)
        return cs->set;
    return s->kind == IR_S_CALL && cs->vparam < s->nargs ? arg_funcs(c, g, s->args[cs->vparam], 0)
                                                         : DL_NONE;
}

/* The constructors' stores (n of them), made at their call sites: under
 * the escape element at each, and on the chain of each field store of a
 * result into a followed field. */
static void fo_ctor_stores(dl_ctx *c, const dl_cstore *cst, size_t n, unsigned *budget)
{
    const ir_program *p = c->prog;
    for (size_t k = 0; k < n; k++) {
        const dl_callsites *cs = &c->fn_callsites[cst[k].ctor];
        for (uint32_t j = 0; j < cs->len; j++) {
            const ir_func *g = p->funcs[cs->data[j].caller];
            dl_chain esc = { DL_OB_ANY, 0, 1, { NULL }, { DL_FIELD_ESC } };
            chain_append(&esc, &cst[k].rel);
            fo_add(c, &esc, cstore_set(c, &cst[k], g, &g->stmts[cs->data[j].stmt]));
        }
    }
    for (uint32_t gi = 0; gi < p->nfuncs; gi++) {
        const ir_func *g = p->funcs[gi];
        for (uint32_t i = 0; i < g->nstmts; i++) {
            org o;
            const ir_expr *lv;
            uint32_t cl = followed_store(c, g, i, &o, &lv);
            if (cl == DL_NONE)
                continue;
            for (uint32_t j = 0; j < o.nsites; j++) {
                const ir_stmt *site = &g->stmts[o.sites[j]];
                uint32_t ci = dl_func_index(c, site->callee->func);
                for (size_t k = 0; k < n; k++) {
                    if (cst[k].ctor != ci)
                        continue;
                    dl_chain obj;
                    expr_chain(c, g, lv, &obj);
                    uint32_t set = cstore_set(c, &cst[k], g, site);
                    if (obj.n == 0) { /* not a field after all: any object */
                        dl_chain any = cst[k].rel;
                        any.kind = DL_OB_ANY;
                        fo_add(c, &any, set);
                        continue;
                    }
                    obj.rec[obj.n - 1] = c->fo_fc.data[cl].rec;
                    obj.field[obj.n - 1] = c->fo_fc.data[cl].field | DL_FIELD_LINK;
                    chain_append(&obj, &cst[k].rel);
                    if (obj.kind == DL_OB_PARAM)
                        fo_inst(c, g, obj.root, &obj, DL_NONE, set, 0, budget);
                    else
                        fo_add(c, &obj, set);
                }
            }
        }
    }
}

/* What is stored at rel in the object a local of f holds, where every
 * value of the local is NULL or a constructor's result in f (DL_NONE:
 * not so, or not known): the constructors' stores at those call sites,
 * the stores to any object, and those to the followed fields f puts one of
 * the results in (only there can it be reached by another chain: a store
 * of it made elsewhere makes the field not followed). */
static uint32_t local_made_funcs(dl_ctx *c, const ir_func *f, const ir_expr *arg, const dl_chain *rel)
{
    arg = strip_casts(arg);
    if (!c->fo_cstores.len || !arg || arg->kind != IR_E_VAR || arg->var->kind != IR_V_LOCAL ||
        arg->var->address_taken || rel->n == 0 || rel->n >= DL_CHAIN_MAX)
        return DL_NONE;
    org o;
    org_init(&o, f);
    org_of(c, f, arg, &o, true, 0);
    free(o.seen);
    if (o.nsites == 0 || (o.kinds & ~(ORG_NULL | ORG_SITE)) || o.ncls)
        return DL_NONE;
    dl_chain q = { DL_OB_ANY, 0, 1, { NULL }, { DL_FIELD_NEW } };
    chain_append(&q, rel);
    uint32_t acc = fo_lookup(c, &q);
    for (uint32_t j = 0; j < o.nsites && acc != DL_NONE; j++) {
        const ir_stmt *site = &f->stmts[o.sites[j]];
        uint32_t ci = dl_func_index(c, site->callee->func);
        for (size_t k = 0; k < c->fo_cstores.len && acc != DL_NONE; k++) {
            const dl_cstore *cs = &c->fo_cstores.data[k];
            if (cs->ctor != ci || !chain_eq(&cs->rel, rel))
                continue;
            uint32_t set = cstore_set(c, cs, f, site);
            acc = set == DL_NONE ? DL_NONE : dl_set_union(c, acc, set);
        }
    }
    for (uint32_t i = 0; i < f->nstmts && acc != DL_NONE; i++) {
        org so;
        const ir_expr *lv;
        uint32_t cl = followed_store(c, f, i, &so, &lv);
        if (cl == DL_NONE)
            continue;
        bool shares = false;
        for (uint32_t j = 0; j < so.nsites && !shares; j++)
            for (uint32_t m = 0; m < o.nsites && !shares; m++)
                shares = so.sites[j] == o.sites[m];
        if (!shares)
            continue;
        dl_chain fq = { DL_OB_ANY, 0, 1, { c->fo_fc.data[cl].rec },
                        { c->fo_fc.data[cl].field | DL_FIELD_LINK } };
        chain_append(&fq, rel);
        uint32_t fs = fo_lookup(c, &fq);
        acc = fs == DL_NONE ? DL_NONE : dl_set_union(c, acc, fs);
    }
    if (acc == DL_NONE || dl_set_len(c, acc) == 0)
        return DL_NONE;
    return with_unkeyed(c, key_field(c, rel->rec[rel->n - 1], rel->field[rel->n - 1]), acc, NULL);
}

/* Every store of a function pointer to a field, under its object's chain;
 * the record types copied whole. */
static void fo_build(dl_ctx *c)
{
    const ir_program *p = c->prog;
    unsigned budget = 200000;
    fc_build(c);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        bool ctor = base_hashmap_get(&c->fo_ctor, (uint64_t)fi + 1, NULL);
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            const ir_type *copied = NULL;
            if (s->lhs && (s->kind == IR_S_ASSIGN || s->kind == IR_S_CALL) && s->lhs->type &&
                (s->lhs->type->kind == IR_T_STRUCT || s->lhs->type->kind == IR_T_UNION))
                copied = s->lhs->type;
            else if (s->kind == IR_S_CALL && s->nargs > 1 && s->callee &&
                     s->callee->kind == IR_E_FUNC && is_copy_func(p, s->callee->func)) {
                copied = record_of(strip_casts(s->args[1])->type); /* bcopy's destination */
                if (copied)
                    base_hashmap_put(&c->fo_copied, (uint64_t)(uintptr_t)dl_canon_type(c, copied), 1);
                copied = record_of(strip_casts(s->args[0])->type);
            }
            if (copied)
                base_hashmap_put(&c->fo_copied, (uint64_t)(uintptr_t)dl_canon_type(c, copied), 1);
            bool op = is_op_stmt(s), call = s->kind == IR_S_CALL || s->kind == IR_S_ASYNC;
            mark_byte_views(c, s->lhs, true, op, NULL, 0, 0);
            mark_byte_views(c, s->rhs, true, op, NULL, 0, 0);
            mark_byte_views(c, s->callee, false, false, NULL, 0, 0);
            for (uint32_t k = 0; k < s->nargs; k++)
                mark_byte_views(c, s->args[k], true, op, call ? s : NULL, k, 0);
            if (!fnptr_store(s->lhs) || s->lhs->kind == IR_E_VAR)
                continue;
            dl_chain ch;
            expr_chain(c, f, s->lhs, &ch);
            if (ch.n == 0)
                continue;
            const ir_expr *r = s->kind == IR_S_ASSIGN ? strip_casts(s->rhs) : NULL;
            int64_t k;
            uint32_t vparam = DL_NONE, set = DL_NONE;
            if (r && r->kind == IR_E_FUNC && dl_func_index(c, r->func) != DL_NONE)
                set = dl_set(c, (uint32_t[]){ dl_func_index(c, r->func) }, 1);
            else if (r && const_value(r, &k) && k == 0)
                set = c->empty;
            else if (r && r->kind == IR_E_VAR && r->var->kind == IR_V_PARAM &&
                     !r->var->address_taken && !param_assigned(f, r->var->id))
                vparam = r->var->id;
            const ir_var *root = ctor ? store_root_local(s->lhs) : NULL;
            if (root && fresh_local(c, f, root)) { /* made at the constructor's call sites */
                dl_cstore cs = { fi, ch, vparam, set };
                base_vec_push(&c->fo_cstores, cs);
            } else if (ch.kind == DL_OB_PARAM)
                fo_inst(c, f, ch.root, &ch, vparam, set, 0, &budget);
            else
                fo_add(c, &ch, vparam != DL_NONE ? param_funcs(c, f, vparam, 0) : set);
        }
    }
    if (c->fo_cstores.len)
        fo_ctor_stores(c, c->fo_cstores.data, c->fo_cstores.len, &budget);
    c->fo_needs = base_xcalloc(p->nfuncs + 1, sizeof *c->fo_needs);
    c->fo_need_state = base_xcalloc(p->nfuncs + 1, 1);
}

/* What a call through the object of chain ch reaches, in the function a
 * analyses (its bindings first; DL_NONE: not known). */
static uint32_t chain_funcs(fn_an *a, const dl_chain *ch)
{
    if (ch->kind == DL_OB_PARAM) {
        for (uint32_t i = 0; i < a->nbinds; i++)
            if (a->binds[i].param == ch->root && chain_eq(&a->binds[i].ch, ch))
                return a->binds[i].set;
        dl_chain any = *ch;
        any.kind = DL_OB_ANY;
        return fo_get(a->c, &any);
    }
    return fo_get(a->c, ch);
}

/* The functions a call through a pointer reaches by the objects its
 * callee values are read from (DL_NONE: some value is not such a read, or
 * its object is not known). */
static uint32_t object_targets(fn_an *a, uint32_t callee_values)
{
    dl_ctx *c = a->c;
    if (!c->fnstores_done)
        build_fnstores(c);
    if (!c->fo_any || callee_values == DL_NONE || dl_set_len(c, callee_values) == 0)
        return DL_NONE;
    uint32_t acc = c->empty;
    for (uint32_t i = 0; i < dl_set_len(c, callee_values); i++) {
        uint32_t v = dl_set_data(c, callee_values)[i];
        if (dl_val_is_addr(v))
            return DL_NONE;
        dl_chain ch;
        path_chain(c, dl_val_path(v), &ch);
        uint32_t fs = ch.kind == DL_OB_NONE ? DL_NONE : chain_funcs(a, &ch);
        if (fs == DL_NONE)
            return DL_NONE;
        acc = dl_set_union(c, acc, fs);
    }
    /* the stores read may be anywhere in the program: not in the cache key */
    c->bind_used = true;
    return acc;
}

static void need_add(dl_ctx *c, uint32_t fi, uint32_t param, const dl_chain *ch, const ir_type *ft)
{
    for (size_t i = 0; i < c->fo_needs[fi].len; i++)
        if (c->fo_needs[fi].data[i].param == param && chain_eq(&c->fo_needs[fi].data[i].ch, ch))
            return;
    if (c->fo_needs[fi].len < DL_MAX_BINDS) {
        dl_bind b = { param, *ch, ft, DL_NONE };
        base_vec_push(&c->fo_needs[fi], b);
    }
}

/* The calls through objects of function fi's fixed parameters, in its body
 * or in callees it passes them to (at most DL_MAX_BINDS; a recursive call
 * sees what is known so far: a call missed here is resolved without
 * bindings, never wrongly). */
static void need_of(dl_ctx *c, uint32_t fi)
{
    if (c->fo_need_state[fi])
        return;
    c->fo_need_state[fi] = 1;
    const ir_func *f = c->prog->funcs[fi];
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        if (s->kind != IR_S_CALL || !s->callee)
            continue;
        if (s->callee->kind != IR_E_FUNC) {
            const ir_expr *e = strip_casts(s->callee);
            if (e->kind == IR_E_DEREF && e->a && is_fnptr_type(e->a->type))
                e = strip_casts(e->a);
            dl_chain ch;
            expr_chain(c, f, e, &ch);
            if (ch.kind == DL_OB_PARAM && ch.n > 0)
                need_add(c, fi, ch.root, &ch, call_fn_type(s));
            continue;
        }
        uint32_t gi = dl_func_index(c, s->callee->func);
        if (gi == DL_NONE || gi == fi || !s->callee->func->has_body)
            continue;
        need_of(c, gi);
        for (size_t k = 0; k < c->fo_needs[gi].len; k++) {
            const dl_bind *nd = &c->fo_needs[gi].data[k];
            if (nd->param >= s->nargs)
                continue;
            const ir_expr *x = strip_casts(s->args[nd->param]);
            dl_chain obj = { DL_OB_NONE, 0, 0, { 0 }, { 0 } };
            if (x->kind == IR_E_VAR && x->var->kind == IR_V_PARAM && param_is_fixed(f, x->var->id))
                obj.kind = DL_OB_PARAM, obj.root = x->var->id;
            else if (x->kind == IR_E_ADDR && x->a)
                expr_chain(c, f, x->a, &obj);
            if (obj.kind != DL_OB_PARAM)
                continue;
            chain_append(&obj, &nd->ch);
            if (obj.kind == DL_OB_PARAM)
                need_add(c, fi, obj.root, &obj, nd->ft);
        }
    }
    c->fo_need_state[fi] = 2;
}

/* The bindings of a call of g at s: for each call through an object of
 * g's parameters, what the argument's object holds there, where that is
 * fewer functions than the call reaches without them. */
static uint32_t bindings_at(fn_an *a, const dl_state *st, const ir_stmt *s, const ir_func *g,
                            uint32_t gi, dl_bind *out)
{
    dl_ctx *c = a->c;
    if (!c->fnstores_done)
        build_fnstores(c);
    if (!c->fo_any)
        return 0;
    need_of(c, gi);
    uint32_t n = 0;
    for (size_t k = 0; k < c->fo_needs[gi].len && n < DL_MAX_BINDS; k++) {
        dl_bind b = c->fo_needs[gi].data[k];
        if (b.param >= s->nargs || !param_is_fixed(g, b.param))
            continue;
        /* a local holding constructors' results: by those calls */
        uint32_t acc = local_made_funcs(c, a->f, s->args[b.param], &b.ch);
        uint32_t vs = acc == DL_NONE ? eval(a, st, s->args[b.param]) : c->empty;
        if (acc == DL_NONE)
            acc = dl_set_len(c, vs) ? c->empty : DL_NONE;
        for (uint32_t i = 0; i < dl_set_len(c, vs) && acc != DL_NONE; i++) {
            uint32_t op = dl_deref(c, dl_set_data(c, vs)[i]);
            dl_chain obj;
            if (op == DL_NONE)
                acc = DL_NONE;
            else {
                path_chain(c, op, &obj);
                chain_append(&obj, &b.ch);
                uint32_t fs = obj.kind == DL_OB_NONE ? DL_NONE : chain_funcs(a, &obj);
                acc = fs == DL_NONE ? DL_NONE : dl_set_union(c, acc, fs);
            }
        }
        if (acc == DL_NONE)
            continue;
        /* what the call reaches in g without it: by the object of g's own
         * parameter (any object of its type), else by the field's key */
        dl_chain own = b.ch;
        own.kind = DL_OB_ANY;
        uint32_t gen = fo_get(c, &own);
        if (gen == acc)
            continue;
        b.set = acc;
        out[n++] = b;
    }
    return n;
}

/* The functions a call through a pointer reaches by where the pointer
 * was assigned: the pointer read is a global or a field (or the values a
 * local holds are reads of those), and every store there is known
 * (DL_NONE: not known). */
/* The functions a call through parameter pi of its own function may
 * reach: what the callers pass (DL_NONE: not known, or nothing). */
static uint32_t param_targets(dl_ctx *c, const ir_stmt *s, uint32_t pi)
{
    if (!c->fnstores_done)
        build_fnstores(c);
    uint64_t fi;
    if (!base_hashmap_get(&c->fn_stmt_func, (uint64_t)(uintptr_t)s, &fi))
        return DL_NONE;
    uint32_t fs = param_funcs(c, c->prog->funcs[fi], pi, 0);
    return fs != DL_NONE && dl_set_len(c, fs) > 0 ? fs : DL_NONE;
}

static uint32_t assigned_targets(dl_ctx *c, const ir_stmt *s, uint32_t callee_values)
{
    const ir_type *ft = call_fn_type(s);
    if (callee_values != DL_NONE && dl_set_len(c, callee_values) > 0) {
        uint32_t acc = c->empty;
        for (uint32_t i = 0; i < dl_set_len(c, callee_values); i++) {
            uint32_t v = dl_set_data(c, callee_values)[i];
            const dl_path *p = &c->paths.data[dl_val_path(v)];
            if (dl_val_is_addr(v) && p->parent == DL_NONE && p->kind == DL_BASE_FUNC) {
                acc = dl_set_add(c, acc, (uint32_t)p->a);
                continue;
            }
            uint32_t fs = dl_val_is_addr(v) ? DL_NONE
                          : p->parent == DL_NONE && p->kind == DL_BASE_PARAM
                          ? param_targets(c, s, (uint32_t)p->a)
                          : stored_funcs(c, path_key(c, dl_val_path(v)), ft);
            if (fs == DL_NONE)
                return DL_NONE;
            acc = dl_set_union(c, acc, fs);
        }
        return acc;
    }
    const ir_expr *e = strip_casts(s->callee);
    if (e && e->kind == IR_E_DEREF && e->a && is_fnptr_type(e->a->type))
        e = strip_casts(e->a);
    if (!e || (e->kind != IR_E_VAR && e->kind != IR_E_FIELD && e->kind != IR_E_INDEX))
        return DL_NONE;
    if (e->kind == IR_E_VAR && e->var->kind == IR_V_PARAM && !e->var->address_taken)
        return param_targets(c, s, e->var->id);
    return stored_funcs(c, lvalue_key(c, e), ft);
}

/* The functions a call (or thread start) through a pointer may reach: the
 * functions the pointer may hold when they are known (a local assigned a
 * function's address), else those stored where the pointer is read from
 * (a global or a field, when every store there is known), else the
 * statement's candidates whose type fits (a last resort, marked in the
 * finding). */
uint32_t dl_call_targets(dl_ctx *c, const ir_stmt *s, uint32_t callee_values,
                         const ir_func **out, uint32_t max)
{
    uint32_t n = 0;
    if (s->callee && s->callee->kind == IR_E_FUNC) {
        out[0] = s->callee->func;
        return 1;
    }
    if (s->callee && s->kind == IR_S_CALL) {
        uint32_t fs = assigned_targets(c, s, callee_values);
        if (fs != DL_NONE) {
            for (uint32_t i = 0; i < dl_set_len(c, fs) && n < max; i++)
                out[n++] = c->prog->funcs[dl_set_data(c, fs)[i]];
            return n;
        }
    }
    if (callee_values != DL_NONE && dl_set_len(c, callee_values) > 0) {
        bool all = true;
        for (uint32_t i = 0; i < dl_set_len(c, callee_values) && all; i++) {
            uint32_t v = dl_set_data(c, callee_values)[i];
            const dl_path *p = &c->paths.data[dl_val_path(v)];
            all = dl_val_is_addr(v) && p->parent == DL_NONE && p->kind == DL_BASE_FUNC;
        }
        if (all) {
            for (uint32_t i = 0; i < dl_set_len(c, callee_values) && n < max; i++) {
                const dl_path *p = &c->paths.data[dl_val_path(dl_set_data(c, callee_values)[i])];
                out[n++] = c->prog->funcs[p->a];
            }
            return n;
        }
    }
    const ir_type *ft = call_fn_type(s);
    for (uint32_t k = 0; k < s->ncands && n < max; k++)
        if (cand_fits(s, ft, s->cands[k]))
            out[n++] = s->cands[k];
    return n;
}

/* Whether the functions a call through a pointer reaches are known from
 * what the pointer holds (not from the candidates' types). */
static bool callee_known(fn_an *a, const dl_state *st, const ir_stmt *s)
{
    dl_ctx *c = a->c;
    const ir_expr *e = s->callee;
    if (e->kind == IR_E_DEREF && e->a && e->a->type && e->a->type->kind == IR_T_PTR)
        e = e->a;
    uint32_t vs = eval(a, st, e);
    return object_targets(a, dl_set_len(c, vs) ? vs : DL_NONE) != DL_NONE ||
           assigned_targets(c, s, dl_set_len(c, vs) ? vs : DL_NONE) != DL_NONE;
}

/* The marker of a callee reached by type only: TRUE(g) on the value of g
 * (the bodiless marker is TRUE(&g): the address). */
static uint32_t type_mark(dl_ctx *c, const ir_func *g)
{
    uint32_t v = dl_val_load(dl_path_base(c, DL_BASE_FUNC, dl_func_index(c, g), 0));
    return dl_atom_mk(c, DL_CMP_TRUE, v, v);
}

/* The marker of a callee reached by the field the pointer is read from,
 * among several, where the object it is read from is not known: TRUE on
 * the value of g with the address of g beside it (merged as a type mark). */
static uint32_t field_mark(dl_ctx *c, const ir_func *g)
{
    uint32_t p = dl_path_base(c, DL_BASE_FUNC, dl_func_index(c, g), 0);
    return dl_atom_mk(c, DL_CMP_TRUE, dl_val_load(p), dl_val_addr(p));
}

/* Whether call s through a pointer read from a field reaches its callees
 * by the field alone, not by the object it is read from: the object is not
 * known (what a pointer field or a call gave, a parameter's object no
 * caller binds), so every object of the field's record type counts. */
static bool by_field_key(fn_an *a, const dl_state *st, const ir_stmt *s)
{
    dl_ctx *c = a->c;
    const ir_expr *e = s->callee;
    if (e->kind == IR_E_DEREF && e->a && e->a->type && e->a->type->kind == IR_T_PTR)
        e = e->a;
    uint32_t vs = eval(a, st, e);
    if (dl_set_len(c, vs) == 0)
        return false;
    bool by_object = object_targets(a, vs) != DL_NONE;
    for (uint32_t i = 0; i < dl_set_len(c, vs); i++) {
        uint32_t v = dl_set_data(c, vs)[i];
        dl_chain ch;
        if (dl_val_is_addr(v))
            return false;
        path_chain(c, dl_val_path(v), &ch);
        if (ch.n == 0)
            continue;
        if (!by_object)
            return true;
        bool bound = false;
        for (uint32_t k = 0; k < a->nbinds && ch.kind == DL_OB_PARAM; k++)
            bound |= a->binds[k].param == ch.root && chain_eq(&a->binds[k].ch, &ch);
        if (ch.n == 1 && !bound && (ch.kind == DL_OB_ANY || ch.kind == DL_OB_PARAM))
            return true;
    }
    return false;
}

/* The functions call s may reach in state st (at most 256). */
static uint32_t call_targets_in(fn_an *a, const dl_state *st, const ir_stmt *s,
                                const ir_func **targets)
{
    uint32_t callee_values = DL_NONE;
    if (s->callee && s->callee->kind != IR_E_FUNC) {
        const ir_expr *e = s->callee;
        if (e->kind == IR_E_DEREF && e->a && e->a->type && e->a->type->kind == IR_T_PTR)
            e = e->a;
        callee_values = eval(a, st, e);
        uint32_t fs = object_targets(a, dl_set_len(a->c, callee_values) ? callee_values : DL_NONE);
        if (fs != DL_NONE) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < dl_set_len(a->c, fs) && n < 256; i++)
                targets[n++] = a->c->prog->funcs[dl_set_data(a->c, fs)[i]];
            return n;
        }
    }
    return dl_call_targets(a->c, s, callee_values, targets, 256);
}

/* A call of functions without a body that receives a pointer to a held
 * lock, or to an object a held lock is part of: the analysis takes it as
 * not releasing the lock, an assumption the report names. */
static void note_opaque(fn_an *a, const ir_stmt *s, dl_state *st, const ir_func *const *cands,
                        uint32_t ncands)
{
    dl_ctx *c = a->c;
    uint32_t hit[8], nhit = 0;
    for (uint32_t i = 0; i < s->nargs; i++) {
        uint32_t vs = eval(a, st, s->args[i]);
        for (uint32_t j = 0; j < dl_set_len(c, vs); j++) {
            uint32_t v = dl_set_data(c, vs)[j];
            uint32_t p = dl_val_is_addr(v) ? dl_val_path(v) : dl_deref(c, v);
            for (size_t k = 0; k < st->held.len && p != DL_NONE && nhit < 8; k++)
                for (uint32_t q = st->held.data[k].k >> 1; q != DL_NONE; q = c->paths.data[q].parent)
                    if (q == p) {
                        hit[nhit++] = st->held.data[k].k;
                        break;
                    }
        }
    }
    uint32_t gi = ncands ? dl_func_index(c, cands[0]) : DL_NONE;
    if (nhit == 0 || gi == DL_NONE)
        return;
    for (uint32_t i = 0; i < ncands; i++) {
        uint32_t gk = dl_func_index(c, cands[i]);
        if (gk != DL_NONE && a->record && !a->pknown)
            a->sum->opaque = dl_set_add(c, a->sum->opaque, dl_path_base(c, DL_BASE_FUNC, gk, 0));
    }
    uint32_t f = dl_val_addr(dl_path_base(c, DL_BASE_FUNC, gi, 0));
    uint32_t atom = dl_atom_mk(c, DL_CMP_TRUE, f, f);
    for (uint32_t i = 0; i < nhit; i++)
        kv_put(&st->opq, hit[i], atom);
}

/* The path of a read in predicate g's body, renamed to the call's
 * arguments: a field (or fields) of what a parameter points to, or of a
 * global (DL_NONE: not such a read). */
static uint32_t pred_read(fn_an *a, const dl_state *st, const ir_stmt *s, const ir_func *g,
                          const ir_expr *e, int depth)
{
    dl_ctx *c = a->c;
    e = strip_casts(e);
    if (!e || depth > 8)
        return DL_NONE;
    switch (e->kind) {
    case IR_E_VAR:
        return e->var->kind == IR_V_GLOBAL ? dl_path_base(c, DL_BASE_GLOBAL, e->var->id, 0) : DL_NONE;
    case IR_E_FIELD:
        return dl_path_sel(c, pred_read(a, st, s, g, e->a, depth + 1), DL_SEL_FIELD, e->field,
                           (uint64_t)(uintptr_t)e->a->type);
    case IR_E_DEREF: {
        const ir_expr *q = strip_casts(e->a);
        if (q->kind == IR_E_VAR && q->var->kind == IR_V_PARAM && q->var->id < s->nargs &&
            param_is_fixed(g, q->var->id)) {
            uint32_t vs = eval(a, st, s->args[q->var->id]);
            return dl_set_len(c, vs) == 1 ? dl_deref(c, dl_set_data(c, vs)[0]) : DL_NONE;
        }
        if (q->kind == IR_E_FIELD || (q->kind == IR_E_VAR && q->var->kind == IR_V_GLOBAL))
            return dl_path_sel(c, pred_read(a, st, s, g, q, depth + 1), DL_SEL_DEREF, 0, 0);
        return DL_NONE;
    }
    default:
        return DL_NONE;
    }
}

/* The atom a call of g stands for when g is a predicate: its body is one
 * `return` of a read's truth (`r`, `!r`, `r != 0`, `r == NULL`), DL_NONE
 * otherwise. */
static uint32_t pred_atom(fn_an *a, const dl_state *st, const ir_stmt *s, const ir_func *g)
{
    const ir_stmt *ret = NULL;
    for (uint32_t i = 0; i < g->nstmts; i++) {
        const ir_stmt *t = &g->stmts[i];
        if (t->kind == IR_S_SKIP)
            continue;
        if (t->kind != IR_S_RETURN || ret || !t->rhs)
            return DL_NONE;
        ret = t;
    }
    if (!ret)
        return DL_NONE;
    const ir_expr *e = strip_casts(ret->rhs);
    bool pos = true;
    for (;;) {
        int64_t k;
        if (e->kind == IR_E_UNARY && e->op == IR_OP_LNOT)
            pos = !pos, e = strip_casts(e->a);
        else if (e->kind == IR_E_BINARY && (e->op == IR_OP_EQ || e->op == IR_OP_NE) &&
                 const_value(e->b, &k) && k == 0)
            pos = e->op == IR_OP_EQ ? !pos : pos, e = strip_casts(e->a);
        else
            break;
    }
    if (e->kind != IR_E_FIELD && e->kind != IR_E_DEREF && e->kind != IR_E_VAR)
        return DL_NONE;
    uint32_t p = pred_read(a, st, s, g, e, 0);
    if (p == DL_NONE || dl_path_has_any(a->c, p))
        return DL_NONE;
    uint32_t v = dl_val_load(p);
    uint32_t at = dl_atom_mk(a->c, DL_CMP_TRUE, v, v);
    return pos ? at : dl_atom_neg(a->c, at);
}

static void do_call_targets(fn_an *a, const ir_stmt *s, dl_state *st);

/* A call; a variable that takes the result of a predicate remembers the
 * read it stands for. */
static void do_call(fn_an *a, const ir_stmt *s, dl_state *st)
{
    uint32_t at = DL_NONE;
    if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var)) {
        const ir_func *targets[256];
        uint32_t nt = call_targets_in(a, st, s, targets);
        if (nt == 1 && targets[0]->has_body)
            at = pred_atom(a, st, s, targets[0]);
    }
    do_call_targets(a, s, st);
    if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var)) {
        if (at != DL_NONE)
            kv_put(&st->predv, var_key(s->lhs->var), at);
        else
            kv_del(&st->predv, var_key(s->lhs->var));
    }
}

static void do_call_targets(fn_an *a, const ir_stmt *s, dl_state *st)
{
    dl_ctx *c = a->c;
    const ir_func *targets[256];
    uint32_t ncands = call_targets_in(a, st, s, targets);
    /* candidates by type only: each callee's contribution says so */
    bool by_type = s->callee && s->callee->kind != IR_E_FUNC && !callee_known(a, st, s);
    const ir_func *const *cands = targets;
    uint32_t nbody = 0;
    for (uint32_t i = 0; i < ncands; i++)
        nbody += has_summary(c, cands[i]);
    bool by_field = !by_type && nbody > 1 && s->callee && s->callee->kind != IR_E_FUNC &&
                    by_field_key(a, st, s);
    if (nbody == 0) {
        if (st->held.len)
            note_opaque(a, s, st, cands, ncands);
        if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var)) {
            uint32_t rv = ret_value(c, cands, ncands);
            if (rv != DL_NONE)
                kv_put(&st->env, var_key(s->lhs->var), dl_set(c, &rv, 1));
            else
                kv_del(&st->env, var_key(s->lhs->var));
            kv_del(&st->tryres, var_key(s->lhs->var));
            kv_del(&st->retcases, var_key(s->lhs->var));
        }
        return;
    }
    if (nbody == 1) {
        for (uint32_t i = 0; i < ncands; i++)
            if (has_summary(c, cands[i]))
                apply_summary(a, s, cands[i], st, by_type ? type_mark(c, cands[i]) : DL_NONE);
        return;
    }
    dl_state acc;
    state_init(c, &acc);
    for (uint32_t i = 0; i < ncands; i++) {
        if (!has_summary(c, cands[i]))
            continue;
        dl_state one;
        state_init(c, &one);
        state_copy(&one, st);
        apply_summary(a, s, cands[i], &one,
                      by_type ? type_mark(c, cands[i]) : by_field ? field_mark(c, cands[i]) : DL_NONE);
        state_join(a, &acc, &one);
        state_free(&one);
    }
    state_copy(st, &acc);
    state_free(&acc);
}

static uint32_t handle_path(fn_an *a, const dl_state *st, const ir_expr *h)
{
    while (h->kind == IR_E_CAST)
        h = h->a;
    if (h->kind == IR_E_ADDR)
        h = h->a;
    if (!ir_is_lvalue(h))
        return DL_NONE;
    uint32_t ps = lvpaths(a, st, h);
    return dl_set_len(a->c, ps) == 1 ? dl_set_data(a->c, ps)[0] : DL_NONE;
}

static void do_async(fn_an *a, const ir_stmt *s, dl_state *st)
{
    dl_ctx *c = a->c;
    uint32_t callees;
    if (s->callee && s->callee->kind == IR_E_FUNC) {
        callees = eval(a, st, s->callee);
    } else {
        callees = s->callee ? eval(a, st, s->callee) : c->empty;
        /* a value that is not a known function or a formal is resolved by
         * the statement's candidates when the thread tree is built */
    }
    uint32_t arg = DL_NONE;
    if (s->rhs) {
        uint32_t vs = eval(a, st, s->rhs);
        if (dl_set_len(c, vs) == 1)
            arg = dl_set_data(c, vs)[0];
    }
    uint32_t handle = s->lhs ? handle_path(a, st, s->lhs) : DL_NONE;
    uint32_t n = dl_set_len(c, callees);
    uint32_t started[16], ns = 0;
    for (uint32_t i = 0; i < (n ? n : 1) && ns < 16; i++) {
        dl_inst in = { s, a->f, n ? dl_set_data(c, callees)[i] : DL_NONE, arg, handle };
        uint32_t id = dl_inst_mk(c, &in);
        if (a->record) {
            dl_spawn sp = { id, st->live, dl_trace_mk(c, DL_TR_SPAWN, a->f, s->loc, DL_NONE),
                            dl_set_has(c, st->live, id) };
            add_spawn(a, &sp);
        }
        started[ns++] = id;
    }
    /* the locks it starts inside: held for writing on every path */
    uint32_t w[64], nw = 0;
    for (uint32_t i = 0; i < dl_set_len(c, st->held_must) && nw < 64; i++)
        if (!(dl_set_data(c, st->held_must)[i] & 1u))
            w[nw++] = dl_set_data(c, st->held_must)[i] >> 1;
    for (uint32_t i = 0; i < ns; i++) {
        if (nw)
            kv_put(&st->since, started[i], dl_set(c, w, nw));
        else
            kv_del(&st->since, started[i]);
    }
    st->live = dl_set_union(c, st->live, dl_set(c, started, ns));
}

static void do_join(fn_an *a, const ir_stmt *s, dl_state *st)
{
    dl_ctx *c = a->c;
    if (!s->rhs)
        return;
    uint32_t h = handle_path(a, st, s->rhs);
    if (h == DL_NONE)
        return;
    if (a->record)
        a->sum->joins = dl_set_add(c, a->sum->joins, h);
    st->joined = dl_set_add(c, st->joined, h);
    uint32_t keep[64], nk = 0;
    for (uint32_t i = 0; i < dl_set_len(c, st->live) && nk < 64; i++) {
        uint32_t in = dl_set_data(c, st->live)[i];
        if (c->insts.data[in].handle != h)
            keep[nk++] = in;
    }
    st->live = dl_set(c, keep, nk);
}

static void kill_conds(fn_an *a, dl_state *st, uint32_t path);

/* A statement that writes its lhs: the atoms reading it no longer hold. */
static void kill_lhs_conds(fn_an *a, const ir_stmt *s, dl_state *st)
{
    if (!s->lhs || (st->conds == a->c->empty && st->condheld.len == 0 && st->predv.len == 0))
        return;
    uint32_t ps = lvpaths(a, st, s->lhs);
    for (uint32_t i = 0; i < dl_set_len(a->c, ps); i++)
        kill_conds(a, st, dl_set_data(a->c, ps)[i]);
}

/* The variable whose truth a branch guard tests (`v`, `!v`, `v == 0`,
 * `v != 0`), or NULL. */
static const ir_var *tested_var(const ir_expr *g)
{
    for (;;) {
        while (g && g->kind == IR_E_CAST)
            g = g->a;
        if (!g)
            return NULL;
        int64_t k;
        if (g->kind == IR_E_UNARY && g->op == IR_OP_LNOT)
            g = g->a;
        else if (g->kind == IR_E_BINARY && (g->op == IR_OP_EQ || g->op == IR_OP_NE) &&
                 const_value(g->b, &k) && k == 0)
            g = g->a;
        else
            return g->kind == IR_E_VAR && tracked(g->var) ? g->var : NULL;
    }
}

/* The set of tracked variables a branch of f tests for truth. */
static uint32_t tested_vars(dl_ctx *c, const ir_func *f)
{
    BASE_VEC(uint32_t) ks = { 0 };
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *t = &f->stmts[i];
        const ir_var *v = t->kind == IR_S_GOTO ? tested_var(t->rhs) : NULL;
        if (v)
            base_vec_push(&ks, var_key(v));
    }
    uint32_t set = dl_set(c, ks.data, (uint32_t)ks.len);
    base_vec_free(&ks);
    return set;
}

/* The truth an assignment gives a variable some branch tests: a constant,
 * or a variable known to be zero plus or minus a nonzero constant (the
 * counter of a scoped-lock `for` macro: `i = 0`, `i == 0`, `++i`), as the
 * atom TRUE(v) or FALSE(v) (DL_NONE: not known). */
static uint32_t assign_atom(fn_an *a, const ir_stmt *s, const dl_state *st)
{
    dl_ctx *c = a->c;
    const ir_var *v = s->lhs->var;
    if (!a->tested || !dl_set_has(c, a->tested, var_key(v)) || !v->type ||
        (v->type->kind != IR_T_INT && v->type->kind != IR_T_PTR))
        return DL_NONE;
    uint32_t val = dl_val_load(var_path(a, v));
    const ir_expr *r = strip_casts(s->rhs);
    int64_t k;
    bool nonzero;
    if (!r)
        return DL_NONE;
    if (const_value(r, &k)) {
        nonzero = k != 0;
    } else if (r->kind == IR_E_BINARY && (r->op == IR_OP_ADD || r->op == IR_OP_SUB) &&
               strip_casts(r->a)->kind == IR_E_VAR && strip_casts(r->a)->var == v &&
               const_value(r->b, &k) && k != 0 && k > -65536 && k < 65536 &&
               dl_set_has(c, st->conds, dl_atom_mk(c, DL_CMP_FALSE, val, val))) {
        nonzero = true;
    } else {
        return DL_NONE;
    }
    return dl_atom_mk(c, nonzero ? DL_CMP_TRUE : DL_CMP_FALSE, val, val);
}

static void do_assign(fn_an *a, const ir_stmt *s, dl_state *st)
{
    if (!s->lhs)
        return;
    uint32_t at = s->lhs->kind == IR_E_VAR && tracked(s->lhs->var) ? assign_atom(a, s, st) : DL_NONE;
    kill_lhs_conds(a, s, st);
    if (at != DL_NONE)
        st->conds = dl_set_add(a->c, st->conds, at);
    if (s->lhs->kind != IR_E_VAR || !tracked(s->lhs->var))
        return;
    uint32_t k = var_key(s->lhs->var);
    kv_del(&st->tryres, k);
    kv_del(&st->retcases, k);
    kv_del(&st->predv, k);
    const ir_expr *r = s->rhs;
    while (r && r->kind == IR_E_CAST)
        r = r->a;
    if (r && r->kind == IR_E_VAR && tracked(r->var)) {
        int i = kv_find(&st->tryres, var_key(r->var));
        if (i >= 0)
            kv_put(&st->tryres, k, st->tryres.data[i].v);
        i = kv_find(&st->retcases, var_key(r->var));
        if (i >= 0)
            kv_put(&st->retcases, k, st->retcases.data[i].v);
    }
    uint32_t vs = s->rhs ? eval(a, st, s->rhs) : a->c->empty;
    if (dl_set_len(a->c, vs))
        kv_put(&st->env, k, vs);
    else
        kv_del(&st->env, k);
}

/* A comparison guard between two values: the atom true on the jump. */
static void add_cond(fn_an *a, const ir_stmt *s, dl_state *st, bool jump)
{
    dl_ctx *c = a->c;
    const ir_expr *g = s->rhs;
    if (!g)
        return;
    uint32_t pred = DL_NONE;
    bool pos = jump;
    for (;;) {
        while (g->kind == IR_E_CAST)
            g = g->a;
        if (g->kind == IR_E_UNARY && g->op == IR_OP_LNOT) {
            pos = !pos;
            g = g->a;
            continue;
        }
        int64_t k;
        if (g->kind == IR_E_BINARY && (g->op == IR_OP_EQ || g->op == IR_OP_NE) &&
            const_value(g->b, &k) && k == 0) { /* e == 0, e != 0 */
            if (g->op == IR_OP_EQ)
                pos = !pos;
            g = g->a;
            continue;
        }
        break;
    }
    uint32_t atom = DL_NONE;
    dl_cmp op = DL_CMP_EQ;
    bool swap = false, cmp = g->kind == IR_E_BINARY;
    if (cmp) {
        switch (g->op) {
        case IR_OP_LT: op = DL_CMP_LT; break;
        case IR_OP_LE: op = DL_CMP_LE; break;
        case IR_OP_GT: op = DL_CMP_LT, swap = true; break;
        case IR_OP_GE: op = DL_CMP_LE, swap = true; break;
        case IR_OP_EQ: op = DL_CMP_EQ; break;
        case IR_OP_NE: op = DL_CMP_NE; break;
        default: return; /* arithmetic: no atom */
        }
    }
    if (cmp) {
        if (c->opts->no_value_order)
            return;
        uint32_t xs = eval(a, st, g->a), ys = eval(a, st, g->b);
        if (dl_set_len(c, xs) != 1 || dl_set_len(c, ys) != 1)
            return;
        uint32_t x = dl_set_data(c, xs)[0], y = dl_set_data(c, ys)[0];
        atom = swap ? dl_atom_mk(c, op, y, x) : dl_atom_mk(c, op, x, y);
    } else if (g->kind == IR_E_VAR || g->kind == IR_E_FIELD || g->kind == IR_E_DEREF ||
               g->kind == IR_E_INDEX) {
        /* the truth of a read: a tracked local by its own storage (an
         * assignment to it kills the atom), anything else by its path */
        uint32_t v = DL_NONE;
        int pi = g->kind == IR_E_VAR && tracked(g->var) ? kv_find(&st->predv, var_key(g->var)) : -1;
        if (pi >= 0) {
            pred = st->predv.data[pi].v;
        } else if (g->kind == IR_E_VAR && tracked(g->var)) {
            v = dl_val_load(var_path(a, g->var));
        } else {
            uint32_t ps = lvpaths(a, st, g);
            if (dl_set_len(c, ps) == 1)
                v = dl_val_load(dl_set_data(c, ps)[0]);
        }
        if (v == DL_NONE && pred == DL_NONE)
            return;
        atom = pred != DL_NONE ? pred : dl_atom_mk(c, DL_CMP_TRUE, v, v);
    } else {
        return;
    }
    if (!pos)
        atom = dl_atom_neg(c, atom);
    /* the truth of a tracked local (no other thread or pointer writes it)
     * tested against what every path here knows of it: the edge is never
     * taken (the exit of a scoped-lock `for` on its first test) */
    if (!cmp && pred == DL_NONE && g->kind == IR_E_VAR && tracked(g->var) &&
        dl_set_has(c, st->conds, dl_atom_neg(c, atom))) {
        st->reached = false;
        return;
    }
    st->conds = dl_set_add(c, st->conds, atom);
    /* locks held only where the negation holds are not held here; those
     * held wherever the atom holds are held on every path here */
    if (st->condheld.len) {
        uint32_t na = dl_atom_neg(c, atom);
        for (size_t i = 0; i < st->condheld.len;) {
            if (st->condheld.data[i].v == (atom | CH_MUST) &&
                kv_find(&st->held, st->condheld.data[i].k) >= 0)
                st->held_must = dl_set_add(c, st->held_must, st->condheld.data[i].k);
            if ((st->condheld.data[i].v & ~CH_MUST) == na) {
                uint32_t lm = st->condheld.data[i].k;
                kv_del(&st->held, lm);
                st->held_must = dl_set_minus(c, st->held_must, dl_set(c, &lm, 1));
                kv_del(&st->condheld, lm);
            } else {
                i++;
            }
        }
    }
}

/* Drops the atoms that read a path just written (or a variable's value). */
static void kill_conds(fn_an *a, dl_state *st, uint32_t path)
{
    dl_ctx *c = a->c;
    uint32_t n = dl_set_len(c, st->conds);
    uint32_t keep[64], nk = 0;
    for (uint32_t i = 0; i < n && nk < 64; i++) {
        uint32_t at = dl_set_data(c, st->conds)[i];
        const dl_atom *x = &c->atoms.data[at];
        bool hit = false;
        uint32_t v[2] = { x->x, x->y };
        for (int k = 0; k < 2; k++)
            for (uint32_t p = dl_val_path(v[k]); p != DL_NONE; p = c->paths.data[p].parent)
                if (p == path)
                    hit = true;
        if (!hit)
            keep[nk++] = at;
    }
    st->conds = dl_set(c, keep, nk);
    for (size_t i = 0; i < st->predv.len;) {
        const dl_atom *x = &c->atoms.data[st->predv.data[i].v];
        bool hit = false;
        for (uint32_t p = dl_val_path(x->x); p != DL_NONE && !hit; p = c->paths.data[p].parent)
            hit = p == path;
        if (hit)
            kv_del(&st->predv, st->predv.data[i].k);
        else
            i++;
    }
    for (size_t i = 0; i < st->condheld.len;) {
        const dl_atom *x = &c->atoms.data[st->condheld.data[i].v & ~CH_MUST];
        bool hit = false;
        uint32_t v[2] = { x->x, x->y };
        for (int k = 0; k < 2; k++)
            for (uint32_t p = dl_val_path(v[k]); p != DL_NONE; p = c->paths.data[p].parent)
                if (p == path)
                    hit = true;
        if (hit)
            kv_del(&st->condheld, st->condheld.data[i].k);
        else
            i++;
    }
}

/* For a GOTO on a variable set by a call with return cases (`if (r < 0)`,
 * `if (!r)`, `if (r == -1)`): the edge keeps the cases whose value takes
 * it, and the locks that only the others leave held are not held. */
static void retcase_edge(fn_an *a, const ir_stmt *s, dl_state *st, bool jump)
{
    dl_ctx *c = a->c;
    if (st->retcases.len == 0 || !s->rhs)
        return;
    const ir_expr *g = strip_casts(s->rhs), *v = NULL;
    bool pos = jump;
    while (g->kind == IR_E_UNARY && g->op == IR_OP_LNOT) {
        pos = !pos;
        g = strip_casts(g->a);
    }
    ir_op op = IR_OP_NE;
    int64_t k = 0;
    if (g->kind == IR_E_VAR) {
        v = g;
    } else if (g->kind == IR_E_BINARY && (g->op == IR_OP_EQ || g->op == IR_OP_NE || g->op == IR_OP_LT ||
                                          g->op == IR_OP_LE || g->op == IR_OP_GT || g->op == IR_OP_GE)) {
        const ir_expr *l = strip_casts(g->a), *r = strip_casts(g->b);
        op = g->op;
        if (const_value(r, &k)) {
            v = l;
        } else if (const_value(l, &k)) { /* k op v: v swapped-op k */
            v = r;
            op = op == IR_OP_LT ? IR_OP_GT : op == IR_OP_LE ? IR_OP_GE : op == IR_OP_GT ? IR_OP_LT
                 : op == IR_OP_GE ? IR_OP_LE : op;
        }
    }
    if (!v || v->kind != IR_E_VAR || !tracked(v->var))
        return;
    int i = kv_find(&st->retcases, var_key(v->var));
    if (i < 0)
        return;
    uint32_t cases = st->retcases.data[i].v, all = c->empty, keep = c->empty;
    uint32_t kept[DL_MAX_RET_CASES], nk = 0;
    for (uint32_t j = 0; j < dl_set_len(c, cases) && j < DL_MAX_RET_CASES; j++) {
        uint32_t id = dl_set_data(c, cases)[j];
        const dl_tuple *t = &c->cases_t.items.data[id];
        int64_t x = (int64_t)t->a;
        bool truth = op == IR_OP_EQ ? x == k : op == IR_OP_NE ? x != k : op == IR_OP_LT ? x < k
                     : op == IR_OP_LE ? x <= k : op == IR_OP_GT ? x > k : x >= k;
        all = dl_set_union(c, all, (uint32_t)t->b);
        if (truth == pos) {
            keep = dl_set_union(c, keep, (uint32_t)t->b);
            kept[nk++] = id;
        }
    }
    uint32_t drop = dl_set_minus(c, all, keep);
    for (uint32_t j = 0; j < dl_set_len(c, drop); j++) {
        uint32_t lm = dl_set_data(c, drop)[j];
        kv_del(&st->held, lm);
        kv_del(&st->condheld, lm);
        st->held_must = dl_set_minus(c, st->held_must, dl_set(c, &lm, 1));
    }
    kv_put(&st->retcases, var_key(v->var), dl_set(c, kept, nk));
}

/* For a GOTO on a lock result: which locks the jump (and the fall-through)
 * proves not taken. */
static void refine_edge(fn_an *a, const ir_stmt *s, dl_state *st, bool jump)
{
    const ir_expr *g = s->rhs;
    add_cond(a, s, st, jump);
    retcase_edge(a, s, st, jump);
    if (!g || st->tryres.len == 0)
        return;
    bool nonzero_means_jump = true; /* guard "v" or "v != 0": jump when v != 0 */
    for (;;) {
        while (g->kind == IR_E_CAST)
            g = g->a;
        if (g->kind == IR_E_UNARY && g->op == IR_OP_LNOT) {
            nonzero_means_jump = !nonzero_means_jump;
            g = g->a;
            continue;
        }
        if (g->kind == IR_E_BINARY && (g->op == IR_OP_EQ || g->op == IR_OP_NE)) {
            int64_t k;
            if (const_value(g->b, &k) && k == 0) {
                if (g->op == IR_OP_EQ)
                    nonzero_means_jump = !nonzero_means_jump;
                g = g->a;
                continue;
            }
        }
        break;
    }
    if (g->kind != IR_E_VAR || !tracked(g->var))
        return;
    int i = kv_find(&st->tryres, var_key(g->var));
    if (i < 0)
        return;
    uint32_t set = st->tryres.data[i].v;
    bool nonzero = jump == nonzero_means_jump;
    bool failed = set & TRY_NONNULL ? !nonzero : nonzero;
    set &= ~TRY_NONNULL;
    if (!failed) { /* it succeeded: what it took and still holds is held on every path here */
        for (uint32_t k = 0; k < dl_set_len(a->c, set); k++) {
            uint32_t lm = dl_set_data(a->c, set)[k];
            if (kv_find(&st->held, lm) >= 0)
                st->held_must = dl_set_add(a->c, st->held_must, lm);
        }
        return;
    }
    for (uint32_t k = 0; k < dl_set_len(a->c, set); k++) {
        uint32_t lm = dl_set_data(a->c, set)[k];
        kv_del(&st->held, lm);
        st->held_must = dl_set_minus(a->c, st->held_must, dl_set(a->c, &lm, 1));
    }
}

static void do_lock_init(fn_an *a, const ir_stmt *s, dl_state *st)
{
    if (!a->record)
        return;
    if (s->lock_kind != IR_LOCK_MUTEX_RECURSIVE && s->lock_kind != IR_LOCK_MUTEX_ERRORCHECK)
        return;
    uint32_t locks = lock_paths(a, st, s->rhs);
    a->sum->recursive = dl_set_union(a->c, a->sum->recursive, locks);
}

/* Runs statement i on st (in place) and joins the results into the
 * successors' in-states; returns nothing, pushes changed successors. */
/* The pending statements, taken lowest index first: in a goto program
 * lowered from structured C that is (nearly) an order in which a merge
 * point comes after the branches that reach it, so a state refined on one
 * branch (a lock dropped by a correlated condition) is joined before it is
 * passed on, not after (the join could not take it back). */
typedef struct worklist {
    bool *in;
    uint32_t lo, n, count;
} worklist;

static void wl_push(worklist *w, uint32_t i)
{
    if (w->in[i])
        return;
    w->in[i] = true;
    w->count++;
    if (i < w->lo)
        w->lo = i;
}

static uint32_t wl_pop(worklist *w)
{
    while (!w->in[w->lo])
        w->lo++;
    w->in[w->lo] = false;
    w->count--;
    return w->lo;
}

static bool is_false(const ir_expr *e)
{
    int64_t v;
    return e && const_value(e, &v) && v == 0;
}

/* Evaluates an integer expression made of constants and (when the
 * function is specialised) parameters known to be constants. */
static bool const_eval(const fn_an *a, const ir_expr *e, int64_t *out, int depth)
{
    int64_t x, y;
    if (depth > 16)
        return false;
    switch (e->kind) {
    case IR_E_CONST:
        if (e->type && e->type->kind == IR_T_FLOAT)
            return false;
        *out = e->value;
        return true;
    case IR_E_VAR:
        if (a->pknown && e->var->kind == IR_V_PARAM && a->pknown[e->var->id]) {
            *out = a->pconst[e->var->id];
            return true;
        }
        return false;
    case IR_E_CAST:
        if (!const_eval(a, e->a, &x, depth + 1))
            return false;
        if (e->type && e->type->kind == IR_T_INT && e->type->bits < 64 && e->type->bits > 0) {
            uint64_t m = (1ull << e->type->bits) - 1, v = (uint64_t)x & m;
            if (e->type->bits == 1)
                v = x != 0;
            else if (e->type->is_signed && (v >> (e->type->bits - 1)) & 1)
                v |= ~m;
            x = (int64_t)v;
        } else if (!e->type || (e->type->kind != IR_T_INT && e->type->kind != IR_T_PTR)) {
            return false;
        }
        *out = x;
        return true;
    case IR_E_UNARY:
        if (!const_eval(a, e->a, &x, depth + 1))
            return false;
        switch (e->op) {
        case IR_OP_LNOT: *out = !x; return true;
        case IR_OP_NEG: *out = (int64_t)(0 - (uint64_t)x); return true;
        case IR_OP_BITNOT: *out = ~x; return true;
        default: return false;
        }
    case IR_E_BINARY: {
        bool kx = const_eval(a, e->a, &x, depth + 1), ky = const_eval(a, e->b, &y, depth + 1);
        if (e->op == IR_OP_LAND && ((kx && !x) || (ky && !y))) {
            *out = 0;
            return true;
        }
        if (e->op == IR_OP_LOR && ((kx && x) || (ky && y))) {
            *out = 1;
            return true;
        }
        if (!kx || !ky)
            return false;
        switch (e->op) {
        case IR_OP_EQ: *out = x == y; return true;
        case IR_OP_NE: *out = x != y; return true;
        case IR_OP_LT: *out = x < y; return true;
        case IR_OP_LE: *out = x <= y; return true;
        case IR_OP_GT: *out = x > y; return true;
        case IR_OP_GE: *out = x >= y; return true;
        case IR_OP_LAND: *out = x && y; return true;
        case IR_OP_LOR: *out = x || y; return true;
        case IR_OP_ADD: *out = (int64_t)((uint64_t)x + (uint64_t)y); return true;
        case IR_OP_SUB: *out = (int64_t)((uint64_t)x - (uint64_t)y); return true;
        case IR_OP_AND: *out = x & y; return true;
        case IR_OP_OR: *out = x | y; return true;
        default: return false;
        }
    }
    default:
        return false;
    }
}

/* A return: the lock modes held at it, by its constant value. */
static void note_ret_case(fn_an *a, const ir_stmt *s, const dl_state *st)
{
    int64_t k;
    if (a->rc_bad || !s->rhs || !const_value(s->rhs, &k)) {
        a->rc_bad = true;
        return;
    }
    uint32_t i = 0;
    while (i < a->nrc && a->rc_val[i] != k)
        i++;
    if (i == DL_MAX_RET_CASES) {
        a->rc_bad = true;
        return;
    }
    if (i == a->nrc) {
        a->rc_val[a->nrc] = k;
        a->rc_held[a->nrc++] = a->c->empty;
    }
    uint32_t n = (uint32_t)st->held.len;
    uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t j = 0; j < n; j++)
        tmp[j] = st->held.data[j].k;
    a->rc_held[i] = dl_set_union(a->c, a->rc_held[i], dl_set(a->c, tmp, n));
    free(tmp);
}

static void step(fn_an *a, uint32_t i, dl_state *st, dl_state *ins, worklist *w)
{
    const ir_func *f = a->f;
    const ir_stmt *s = &f->stmts[i];
    uint32_t n = f->nstmts;
    if (s->lhs && s->kind != IR_S_ASSIGN && s->kind != IR_S_UNLOCK)
        kill_lhs_conds(a, s, st); /* a call's result, a trylock's, a handle */
    switch (s->kind) {
    case IR_S_LOCK: do_lock(a, s, st); break;
    case IR_S_UNLOCK: do_unlock(a, s, st); break;
    case IR_S_CALL: do_call(a, s, st); break;
    case IR_S_ASYNC: do_async(a, s, st); break;
    case IR_S_JOIN: do_join(a, s, st); break;
    case IR_S_ASSIGN: do_assign(a, s, st); break;
    case IR_S_ALLOC:
        if (s->lhs && s->lhs->kind == IR_E_VAR && tracked(s->lhs->var)) {
            kv_del(&st->env, var_key(s->lhs->var));
            kv_del(&st->retcases, var_key(s->lhs->var));
            kv_del(&st->predv, var_key(s->lhs->var));
        }
        break;
    case IR_S_LOCK_INIT: do_lock_init(a, s, st); break;
    case IR_S_RETURN:
        if (a->record)
            note_ret_case(a, s, st);
        if (a->record) {
            uint32_t vs = s->rhs ? eval(a, st, s->rhs) : a->c->empty;
            int64_t k;
            if (s->rhs && dl_set_len(a->c, vs))
                a->ret = dl_set_union(a->c, a->ret, vs);
            else if (!s->rhs || !const_value(s->rhs, &k)) /* NULL names no object */
                a->ret_unknown = true;
            else if (k == 0)
                a->ret_has_null = true;
        }
        break;
    default: break;
    }
    if (!ins)
        return;
    if (s->kind == IR_S_RETURN || s->kind == IR_S_THREAD_EXIT) {
        if (state_join(a, &ins[n], st))
            wl_push(w, n);
        return;
    }
    if (s->kind == IR_S_ASSUME && is_false(s->rhs))
        return; /* exit(), abort(): the path ends */
    int64_t cv;
    if (s->kind == IR_S_ASSUME && s->rhs && const_eval(a, s->rhs, &cv, 0) && !cv)
        return;
    if (s->kind == IR_S_GOTO && s->rhs && const_eval(a, s->rhs, &cv, 0)) {
        if (cv) { /* always jumps */
            for (uint32_t t = 0; t < s->ntargets; t++)
                if (state_join(a, &ins[s->targets[t]], st))
                    wl_push(w, s->targets[t]);
            return;
        }
        /* never jumps: falls through */
    } else if (s->kind == IR_S_GOTO) {
        for (uint32_t t = 0; t < s->ntargets; t++) {
            dl_state e;
            state_init(a->c, &e);
            state_copy(&e, st);
            refine_edge(a, s, &e, true);
            if (state_join(a, &ins[s->targets[t]], &e))
                wl_push(w, s->targets[t]);
            state_free(&e);
        }
        if (!s->rhs)
            return;
        refine_edge(a, s, st, false);
    }
    if (state_join(a, &ins[i + 1], st))
        wl_push(w, i + 1);
}

/* --- a lock taken again by the next iteration of its loop --- */

/* The successors of statement i as the dataflow follows them. */
static uint32_t succs(const fn_an *a, uint32_t i, uint32_t *out, uint32_t max)
{
    const ir_stmt *s = &a->f->stmts[i];
    uint32_t n = a->f->nstmts, k = 0;
    int64_t cv;
    if (s->kind == IR_S_RETURN || s->kind == IR_S_THREAD_EXIT)
        return 0;
    if (s->kind == IR_S_ASSUME && (is_false(s->rhs) || (s->rhs && const_eval(a, s->rhs, &cv, 0) && !cv)))
        return 0;
    if (s->kind == IR_S_GOTO) {
        bool known = s->rhs && const_eval(a, s->rhs, &cv, 0);
        if (!known || cv)
            for (uint32_t t = 0; t < s->ntargets && k < max; t++)
                out[k++] = s->targets[t];
        if (!s->rhs || (known && cv))
            return k;
    }
    if (i + 1 < n && k < max)
        out[k++] = i + 1;
    return k;
}

/* Whether statement r may release lock L under another name (an unlock
 * whose operand may point to it: any name through a pointer, or no name),
 * or through a call the dataflow cannot follow (a callee that releases a
 * lock its caller holds, or one still being analysed). A wait's release
 * does not count: the wait takes the mutex back. */
static bool may_release_alias(fn_an *a, const dl_state *in, uint32_t r, uint32_t L)
{
    dl_ctx *c = a->c;
    const ir_stmt *s = &a->f->stmts[r];
    if (s->kind == IR_S_UNLOCK) {
        if (is_wait_release(a->f, s))
            return false;
        uint32_t ls = lock_paths(a, in, s->rhs);
        if (dl_set_len(c, ls) == 0)
            return true;
        for (uint32_t i = 0; i < dl_set_len(c, ls); i++) {
            uint32_t x = dl_set_data(c, ls)[i];
            if (x == L)
                continue; /* the dataflow sees this one */
            if (c->paths.data[dl_path_root(c, x)].kind != DL_BASE_GLOBAL ||
                c->paths.data[dl_path_root(c, L)].kind != DL_BASE_GLOBAL)
                return true;
            for (uint32_t p = x; p != DL_NONE; p = c->paths.data[p].parent)
                if (c->paths.data[p].kind == DL_SEL_DEREF || c->paths.data[p].kind == DL_SEL_ANY ||
                    c->paths.data[p].kind == DL_SEL_STAR)
                    return true;
        }
        return false;
    }
    if (s->kind != IR_S_CALL)
        return false;
    const ir_func *targets[256];
    uint32_t nt = call_targets_in(a, in, s, targets);
    for (uint32_t i = 0; i < nt; i++) {
        if (!has_summary(c, targets[i]))
            continue; /* a function without a body takes no lock (the analysis' assumption) */
        const dl_summary *x = &c->sums[dl_func_index(c, targets[i])];
        if (!x->done || dl_set_len(c, x->must_held_entry))
            return true;
    }
    return false;
}

/* Whether the lock's name means one object on every iteration: a global
 * object (no pointer on the way), or an object reached through one
 * dereference of a parameter or local that the loop does not assign. */
static bool stable_lock(fn_an *a, uint32_t L, const uint8_t *on_cycle)
{
    dl_ctx *c = a->c;
    uint32_t root = dl_path_root(c, L), derefs = 0;
    for (uint32_t p = L; p != root; p = c->paths.data[p].parent)
        if (c->paths.data[p].kind == DL_SEL_DEREF) {
            if (c->paths.data[p].parent != root)
                return false;
            derefs++;
        }
    const dl_path *rp = &c->paths.data[root];
    if (rp->kind == DL_BASE_GLOBAL)
        return derefs == 0;
    if (rp->kind != DL_BASE_PARAM && rp->kind != DL_BASE_LOCAL)
        return false;
    if (derefs == 0)
        return true;
    const ir_var *v = rp->kind == DL_BASE_PARAM
                          ? (rp->a < a->f->nparams ? a->f->params[rp->a] : NULL)
                          : (rp->b < a->f->nlocals ? a->f->locals[rp->b] : NULL);
    if (!v || !tracked(v))
        return false;
    for (uint32_t i = 0; i < a->f->nstmts; i++) {
        const ir_expr *l = a->f->stmts[i].lhs;
        if (on_cycle[i] && l && l->kind == IR_E_VAR && l->var == v)
            return false;
    }
    return true;
}

/* Whether L is still held (write) when the loop comes back to statement
 * k: a dataflow from k's out-state over the statements on a cycle through
 * k (with the branch correlations of the main dataflow: a lock released
 * under `if (again)` is not held on `while (again)`'s back edge). */
static bool held_round(fn_an *a, const dl_state *ins, uint32_t k, uint32_t L, const uint8_t *cyc)
{
    dl_ctx *c = a->c;
    uint32_t n = a->f->nstmts;
    dl_state *loc = base_xcalloc(n + 1, sizeof *loc);
    for (uint32_t i = 0; i <= n; i++)
        state_init(c, &loc[i]);
    worklist w = { base_xcalloc(n + 2, sizeof(bool)), 0, n + 1, 0 };
    dl_state st;
    state_init(c, &st);
    state_copy(&st, &ins[k]);
    step(a, k, &st, loc, &w);
    uint64_t budget = (uint64_t)(n + 1) * 64 + 1024;
    while (w.count > 0 && budget-- > 0) {
        uint32_t i = wl_pop(&w);
        if (i == k || i == n || !cyc[i])
            continue;
        state_copy(&st, &loc[i]);
        step(a, i, &st, loc, &w);
    }
    bool held = w.count == 0 && loc[k].reached && kv_find(&loc[k].held, L << 1) >= 0;
    state_free(&st);
    for (uint32_t i = 0; i <= n; i++)
        state_free(&loc[i]);
    free(loc);
    free(w.in);
    return held;
}

/* The lock statements whose lock a path from the statement back to it
 * (around a loop) keeps held, as the dataflow sees it: the next iteration
 * blocks on it (a self-deadlock whenever the loop goes round that way).
 * Not when the loop may release the lock under another name (an unlock
 * through a pointer, a callee releasing its caller's lock), nor when the
 * lock's name may mean another object in the next iteration. NULL: none. */
static uint8_t *find_loop_selfs(fn_an *a, const dl_state *ins)
{
    dl_ctx *c = a->c;
    const ir_func *f = a->f;
    uint32_t n = f->nstmts;
    uint8_t *out = NULL;
    uint32_t *pred_n = NULL, **preds = NULL, *stack = NULL;
    uint8_t *fwd = NULL, *cyc = NULL;
    for (uint32_t k = 0; k < n; k++) {
        const ir_stmt *s = &f->stmts[k];
        if (s->kind != IR_S_LOCK || s->is_try || is_wait_retake(f, s) || !ins[k].reached ||
            s->lock_kind == IR_LOCK_RW_READ)
            continue;
        uint32_t ls = lock_paths(a, &ins[k], s->rhs);
        if (dl_set_len(c, ls) != 1)
            continue;
        uint32_t L = dl_set_data(c, ls)[0];
        bool stmt_rec = s->lock_kind == IR_LOCK_MUTEX_RECURSIVE ||
                        s->lock_kind == IR_LOCK_MUTEX_ERRORCHECK;
        if (!relock_blocks(c, L, stmt_rec) || dl_path_has_any(c, L) ||
            dl_set_has(c, ins[k].held_must, L << 1))
            continue;
        if (!preds) { /* predecessor lists, once per function */
            pred_n = base_xcalloc(n + 1, sizeof *pred_n);
            preds = base_xcalloc(n + 1, sizeof *preds);
            stack = base_xmalloc((n + 1) * sizeof *stack);
            fwd = base_xmalloc(n + 1);
            cyc = base_xmalloc(n + 1);
            uint32_t sc[64];
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0, m = succs(a, i, sc, 64); j < m; j++)
                    pred_n[sc[j]]++;
            for (uint32_t i = 0; i < n; i++) {
                preds[i] = base_xmalloc((pred_n[i] + 1) * sizeof **preds);
                pred_n[i] = 0;
            }
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0, m = succs(a, i, sc, 64); j < m; j++)
                    preds[sc[j]][pred_n[sc[j]]++] = i;
        }
        /* forward from k's successors, not through k */
        memset(fwd, 0, n + 1);
        uint32_t sp = 0, sc[64];
        bool loops = false;
        for (uint32_t j = 0, m = succs(a, k, sc, 64); j < m; j++)
            if (!fwd[sc[j]])
                fwd[sc[j]] = 1, stack[sp++] = sc[j];
        while (sp) {
            uint32_t i = stack[--sp];
            if (i == k) {
                loops = true;
                continue;
            }
            if (!ins[i].reached)
                continue;
            for (uint32_t j = 0, m = succs(a, i, sc, 64); j < m; j++)
                if (!fwd[sc[j]])
                    fwd[sc[j]] = 1, stack[sp++] = sc[j];
        }
        if (!loops)
            continue;
        /* backward from k inside what k reaches: the statements on a cycle */
        memset(cyc, 0, n + 1);
        for (uint32_t j = 0; j < pred_n[k]; j++) {
            uint32_t p = preds[k][j];
            if (fwd[p] && p != k && !cyc[p] && ins[p].reached)
                cyc[p] = 1, stack[sp++] = p;
        }
        while (sp) {
            uint32_t i = stack[--sp];
            for (uint32_t j = 0; j < pred_n[i]; j++) {
                uint32_t p = preds[i][j];
                if (fwd[p] && p != k && !cyc[p] && ins[p].reached)
                    cyc[p] = 1, stack[sp++] = p;
            }
        }
        bool released = false;
        for (uint32_t i = 0; i < n && !released; i++)
            if (cyc[i])
                released = may_release_alias(a, &ins[i], i, L);
        if (released || !stable_lock(a, L, cyc) || !held_round(a, ins, k, L, cyc))
            continue;
        if (!out)
            out = base_xcalloc(n + 1, 1);
        out[k] = 1;
    }
    if (preds)
        for (uint32_t i = 0; i < n; i++)
            free(preds[i]);
    free(preds);
    free(pred_n);
    free(stack);
    free(fwd);
    free(cyc);
    return out;
}

void dl_summary_free(dl_summary *s)
{
    base_vec_free(&s->deps);
    base_vec_free(&s->acqs);
    base_vec_free(&s->selfs);
    base_vec_free(&s->spawns);
}

static uint64_t mix(uint64_t h, uint64_t x) { return base_hash64(h ^ (x + 0x9e37u)); }

static uint64_t fingerprint(const dl_summary *s)
{
    uint64_t h = 0;
    h = mix(h, s->must_held_entry); h = mix(h, s->must_free_entry);
    h = mix(h, s->held_may_exit); h = mix(h, s->held_must_exit);
    h = mix(h, s->rel_may_exit); h = mix(h, s->rel_must_exit);
    h = mix(h, s->live_exit); h = mix(h, s->joins); h = mix(h, s->ret);
    h = mix(h, s->joined_exit);
    h = mix(h, s->ret_has_null);
    h = mix(h, s->recursive);
    h = mix(h, s->nret_cases);
    h = mix(h, s->opaque);
    for (uint32_t i = 0; i < s->nret_cases; i++)
        h = mix(mix(h, (uint64_t)s->ret_case_val[i]), s->ret_case_held[i]);
    uint64_t sum = 0;
    for (size_t i = 0; i < s->deps.len; i++) {
        const dl_dep *d = &s->deps.data[i];
        sum += mix(mix(mix(mix(mix(mix(mix(1, d->a), d->b), d->guards), d->par), d->conds), d->joined),
                   d->chain);
    }
    for (size_t i = 0; i < s->acqs.len; i++) {
        const dl_acq *q = &s->acqs.data[i];
        sum += mix(mix(mix(mix(mix(mix(2, q->lm), q->is_try), q->guards), q->released), q->par),
                   mix(mix(q->conds, q->joined), mix(q->anchor, q->link)));
    }
    for (size_t i = 0; i < s->selfs.len; i++)
        sum += mix(mix(3, s->selfs.data[i].lock), s->selfs.data[i].par);
    for (size_t i = 0; i < s->spawns.len; i++)
        sum += mix(mix(mix(4, s->spawns.data[i].inst), s->spawns.data[i].live),
                   s->spawns.data[i].multi);
    return mix(h, sum);
}

/* The summary of a function that does nothing (no body, or left out when
 * a budget ran out). */
static void empty_summary(dl_ctx *c, dl_summary *ns)
{
    memset(ns, 0, sizeof *ns);
    ns->must_held_entry = ns->must_free_entry = ns->held_may_exit = ns->held_must_exit = c->empty;
    ns->rel_may_exit = ns->rel_must_exit = ns->live_exit = ns->joins = ns->recursive = c->empty;
    ns->joined_exit = c->empty;
    ns->opaque = c->empty;
    ns->ret = DL_NONE;
}

/* The progress line inside a long analysis of one function: its name and
 * how long the component has taken (the callback limits the redraws). */
static void slow_progress(dl_ctx *c, const ir_func *f)
{
    char phase[200];
    snprintf(phase, sizeof phase, "summaries (%.100s, %.0f s)", base_sym_str(c->prog->syms, f->name),
             base_now() - c->scc_started);
    c->opts->progress(c->opts->progress_ctx, phase, c->funcs_done, c->prog->nfuncs, 0);
}

/* Analyses f with the current summaries of its callees; replaces its
 * summary. Returns whether the summary changed. */
static void analyse_into(dl_ctx *c, const ir_func *f, const bool *pknown, const int64_t *pconst,
                         const dl_bind *binds, uint32_t nbinds, dl_summary *out)
{
    uint32_t fi = dl_func_index(c, f);
    uint32_t n = f->nstmts;
    fn_an a = { 0 };
    a.c = c;
    a.f = f;
    a.fi = fi;
    a.pknown = pknown;
    a.pconst = pconst;
    a.binds = binds;
    a.nbinds = nbinds;
    a.tested = tested_vars(c, f);
    dl_summary ns;
    empty_summary(c, &ns);
    a.sum = &ns;
    a.ret = c->empty;
    base_hashmap_init(&a.dep_ix);
    base_hashmap_init(&a.acq_ix);
    base_hashmap_init(&a.self_ix);
    base_hashmap_init(&a.spawn_ix);

    dl_state *ins = base_xcalloc(n + 1, sizeof *ins);
    for (uint32_t i = 0; i <= n; i++)
        state_init(c, &ins[i]);
    worklist w = { base_xcalloc(n + 2, sizeof(bool)), 0, n + 1, 0 };
    ins[0].reached = true;
    if (n > 0)
        wl_push(&w, 0);
    dl_state st;
    state_init(c, &st);
    uint64_t budget = (uint64_t)(n + 1) * 64 + 1024;
    for (uint64_t it = 1; w.count > 0 && budget-- > 0; it++) {
        if ((it & 255) == 0 && dl_out_of_budget(c)) {
            c->summary_cut = true; /* the summary holds what was seen so far */
            break;
        }
        if ((it & 255) == 0 && c->opts->progress) /* a slow function names itself */
            slow_progress(c, f);
        uint32_t i = wl_pop(&w);
        if (i == n)
            continue;
        state_copy(&st, &ins[i]);
        step(&a, i, &st, ins, &w);
    }
    /* the recording pass over the fixed in-states */
    a.ins = ins;
    uint8_t *loop_self = find_loop_selfs(&a, ins);
    a.loop_self = loop_self;
    a.record = true;
    for (uint32_t i = 0; i < n; i++) {
        if (!ins[i].reached)
            continue;
        if ((i & 63) == 63 && c->opts->progress)
            slow_progress(c, f);
        state_copy(&st, &ins[i]);
        step(&a, i, &st, NULL, NULL);
    }
    if (n == 0)
        ins[0].reached = true;
    const dl_state *ex = &ins[n];
    if (ex->reached) {
        uint32_t *tmp = base_xmalloc((ex->held.len + 1) * sizeof *tmp);
        for (size_t i = 0; i < ex->held.len; i++)
            tmp[i] = ex->held.data[i].k;
        ns.held_may_exit = dl_set(c, tmp, (uint32_t)ex->held.len);
        free(tmp);
        ns.held_must_exit = ex->held_must;
        ns.rel_may_exit = ex->rel_may;
        ns.rel_must_exit = ex->rel_must;
        ns.live_exit = ex->live;
        ns.joined_exit = ex->joined;
    }
    ns.ret = a.ret_unknown || dl_set_len(c, a.ret) == 0 ? DL_NONE : a.ret;
    if (!a.rc_bad && a.nrc >= 2) {
        ns.nret_cases = a.nrc;
        memcpy(ns.ret_case_val, a.rc_val, sizeof a.rc_val);
        memcpy(ns.ret_case_held, a.rc_held, sizeof a.rc_held);
        for (uint32_t i = a.nrc; i < DL_MAX_RET_CASES; i++)
            ns.ret_case_held[i] = c->empty;
    }
    ns.ret_has_null = a.ret_has_null;
    if (widen_summary(&a, &ns))
        c->widened++;
    ns.done = true;
    ns.fingerprint = fingerprint(&ns);

    state_free(&st);
    free(loop_self);
    for (uint32_t i = 0; i <= n; i++)
        state_free(&ins[i]);
    free(ins);
    free(w.in);
    base_hashmap_free(&a.dep_ix);
    base_hashmap_free(&a.acq_ix);
    base_hashmap_free(&a.self_ix);
    base_hashmap_free(&a.spawn_ix);
    *out = ns;
}

/* --- the widening: bounded summaries --- */

/* A set of locks (or lock modes) without the locks the widening renamed
 * (guards: a lock held on every path; a class is not one object). */
static uint32_t drop_widened(dl_ctx *c, uint32_t set, bool modes)
{
    uint32_t n = dl_set_len(c, set), m = 0;
    uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = dl_set_data(c, set)[i], L = modes ? x >> 1 : x;
        if (dl_path_class(c, L, true) == L)
            tmp[m++] = x;
    }
    uint32_t out = m == n ? set : dl_set(c, tmp, m);
    free(tmp);
    return out;
}

static uint32_t class_mode(dl_ctx *c, uint32_t lm)
{
    return dl_path_class(c, lm >> 1, true) << 1 | (lm & 1u);
}

/* A set of locks (or lock modes) with each renamed to its class. */
static uint32_t class_set(dl_ctx *c, uint32_t set, bool modes)
{
    uint32_t n = dl_set_len(c, set);
    uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = dl_set_data(c, set)[i];
        tmp[i] = modes ? class_mode(c, x) : dl_path_class(c, x, true);
    }
    uint32_t out = dl_set(c, tmp, n);
    free(tmp);
    return out;
}

/* Bounds a summary: when it acquires more than DL_WIDEN_LOCKS distinct
 * locks (calls through pointers with many candidates, paths through
 * `void *` fields), every lock that is not one global object is renamed to
 * its class (dl_path_class): a dependency between two locks becomes one
 * between their classes, so every cycle of the concrete locks is a cycle
 * of their classes (dl_find renames the locks of every thread the same
 * way, and a class may wait for itself). Guards lose the renamed locks (a
 * class is held by no one on every path); dependencies, acquisitions and
 * self-deadlocks that meet are merged as add_dep does (guards, conditions
 * and joins intersected, threads united). With more than DL_WIDEN_DEPS
 * dependencies, those that differ only in their threads are merged too.
 * Nothing is dropped, so the summary over-approximates; a finding through
 * a class is "may" and says so. Returns whether it widened. */
/* The marks among a set of atoms (TRUE on a function: a callee reached by
 * type or by field only, a lock passed to a function without a body): the
 * widening keeps them, as the finding's reasons. */
static uint32_t marks_of(dl_ctx *c, uint32_t conds)
{
    uint32_t keep[16], n = 0;
    for (uint32_t k = 0; k < dl_set_len(c, conds) && n < 16; k++) {
        const dl_atom *x = &c->atoms.data[dl_set_data(c, conds)[k]];
        const dl_path *fp = &c->paths.data[dl_val_path(x->x)];
        if (x->op == DL_CMP_TRUE && fp->kind == DL_BASE_FUNC && fp->parent == DL_NONE)
            keep[n++] = dl_set_data(c, conds)[k];
    }
    return dl_set(c, keep, n);
}

static bool widen_summary(fn_an *a, dl_summary *ns)
{
    dl_ctx *c = a->c;
    base_hashmap seen;
    base_hashmap_init(&seen);
    size_t nlocks = 0;
    for (size_t i = 0; i < ns->acqs.len && nlocks <= DL_WIDEN_LOCKS; i++) {
        uint64_t v;
        if (!base_hashmap_get(&seen, ns->acqs.data[i].lm >> 1, &v)) {
            base_hashmap_put(&seen, ns->acqs.data[i].lm >> 1, 1);
            nlocks++;
        }
    }
    base_hashmap_free(&seen);
    bool force = c->widen_all; /* a recursive component that does not settle */
    bool many_deps = force || ns->deps.len > DL_WIDEN_DEPS;
    bool many_rel = dl_set_len(c, ns->rel_may_exit) > DL_WIDEN_LOCKS;
    bool many_threads = force || ns->spawns.len > DL_WIDEN_LOCKS ||
                        dl_set_len(c, ns->live_exit) > DL_WIDEN_LOCKS;
    if (nlocks <= DL_WIDEN_LOCKS && !many_deps && !many_rel && !many_threads)
        return false;
    dl_summary old = *ns;
    memset(&ns->deps, 0, sizeof ns->deps);
    memset(&ns->acqs, 0, sizeof ns->acqs);
    memset(&ns->selfs, 0, sizeof ns->selfs);
    memset(&ns->spawns, 0, sizeof ns->spawns);
    base_hashmap_clear(&a->spawn_ix);
    base_hashmap_clear(&a->dep_ix);
    base_hashmap_clear(&a->acq_ix);
    base_hashmap_clear(&a->self_ix);
    dl_summary *keep = a->sum;
    a->sum = ns;
    a->merge_par = many_deps;
    for (size_t i = 0; i < old.acqs.len; i++) {
        dl_acq q = old.acqs.data[i];
        q.lm = class_mode(c, q.lm);
        q.guards = drop_widened(c, q.guards, false);
        q.released = drop_widened(c, q.released, false); /* fewer skipped dependencies */
        if (many_threads)
            q.par = dl_widen_instset(c, q.par);
        if (force) /* fewer conditions and joins: more may happen together */
            q.conds = marks_of(c, q.conds), q.joined = c->empty;
        add_acq(a, &q);
    }
    for (size_t i = 0; i < old.deps.len; i++) {
        dl_dep d = old.deps.data[i];
        d.a = class_mode(c, d.a);
        d.b = class_mode(c, d.b);
        d.guards = drop_widened(c, d.guards, false);
        if (many_threads)
            d.par = dl_widen_instset(c, d.par);
        if (force)
            d.conds = marks_of(c, d.conds), d.joined = c->empty;
        add_dep(a, &d);
    }
    /* thread instances by class (dl_widen_inst): every instance set of the
     * summary the same way, so a start and the sets it is tested against
     * agree; a widened start may run more than once at a time */
    for (size_t i = 0; i < old.spawns.len; i++) {
        dl_spawn sp = old.spawns.data[i];
        if (many_threads) {
            sp.inst = dl_widen_inst(c, sp.inst);
            sp.live = dl_widen_instset(c, sp.live);
            sp.multi = true;
        }
        add_spawn(a, &sp);
    }
    if (many_threads)
        ns->live_exit = dl_widen_instset(c, ns->live_exit);
    if (force) { /* the values returned, by class; no join on every path */
        ns->joined_exit = c->empty;
        /* fewer joins (threads run longer) and fewer recursive locks (more
         * self-deadlocks): both over-approximate */
        ns->joins = drop_widened(c, ns->joins, false);
        ns->recursive = drop_widened(c, ns->recursive, false);
        if (ns->ret != DL_NONE) {
            uint32_t n = dl_set_len(c, ns->ret);
            uint32_t *tmp = base_xmalloc((n + 1) * sizeof *tmp);
            for (uint32_t i = 0; i < n; i++)
                tmp[i] = dl_widen_value(c, dl_set_data(c, ns->ret)[i]);
            ns->ret = dl_set(c, tmp, n);
            free(tmp);
        }
    }
    for (size_t i = 0; i < old.selfs.len; i++) {
        dl_self sd = old.selfs.data[i];
        sd.lock = dl_path_class(c, sd.lock, true);
        if (many_threads)
            sd.par = dl_widen_instset(c, sd.par);
        add_self(a, &sd);
    }
    /* released (may): a lock of a class in it may have been released, and
     * is no longer held on every path (apply_summary); the must-sets lose
     * the renamed locks (fewer drops and resets: more dependencies) */
    ns->rel_may_exit = class_set(c, ns->rel_may_exit, false);
    ns->rel_must_exit = drop_widened(c, ns->rel_must_exit, false);
    ns->must_free_entry = drop_widened(c, ns->must_free_entry, false);
    ns->must_held_entry = drop_widened(c, ns->must_held_entry, false);
    if (force || dl_set_len(c, ns->held_may_exit) > DL_WIDEN_LOCKS) {
        ns->held_may_exit = class_set(c, ns->held_may_exit, true);
        ns->held_must_exit = drop_widened(c, ns->held_must_exit, true);
        for (uint32_t i = 0; i < ns->nret_cases; i++)
            ns->ret_case_held[i] = class_set(c, ns->ret_case_held[i], true);
    }
    a->sum = keep;
    a->merge_par = false;
    base_vec_free(&old.deps);
    base_vec_free(&old.acqs);
    base_vec_free(&old.selfs);
    base_vec_free(&old.spawns);
    return true;
}

/* A component that is widened as a whole (c->widen_all) goes round until
 * its summaries settle: a dependency, acquisition, self-deadlock or start
 * that its function's summary had in the round before keeps the call chain
 * it had then (a witness is a witness), so the chains, which go round the
 * recursion, do not grow with the rounds. */
static void keep_traces(dl_ctx *c, const dl_summary *old, dl_summary *ns)
{
    base_hashmap ix;
    base_hashmap_init(&ix);
    for (size_t i = 0; i < old->deps.len; i++)
        base_hashmap_put(&ix, (uint64_t)old->deps.data[i].a << 32 | old->deps.data[i].b, i);
    for (size_t i = 0; i < ns->deps.len; i++) {
        uint64_t j;
        dl_dep *d = &ns->deps.data[i];
        if (base_hashmap_get(&ix, (uint64_t)d->a << 32 | d->b, &j)) {
            d->ta = old->deps.data[j].ta;
            d->tb = old->deps.data[j].tb;
        }
    }
    base_hashmap_clear(&ix);
    for (size_t i = 0; i < old->acqs.len; i++)
        base_hashmap_put(&ix, (uint64_t)old->acqs.data[i].lm << 1 | old->acqs.data[i].is_try, i);
    for (size_t i = 0; i < ns->acqs.len; i++) {
        uint64_t j;
        if (base_hashmap_get(&ix, (uint64_t)ns->acqs.data[i].lm << 1 | ns->acqs.data[i].is_try, &j))
            ns->acqs.data[i].trace = old->acqs.data[j].trace;
    }
    base_hashmap_clear(&ix);
    for (size_t i = 0; i < old->selfs.len; i++)
        base_hashmap_put(&ix, old->selfs.data[i].lock, i);
    for (size_t i = 0; i < ns->selfs.len; i++) {
        uint64_t j;
        if (base_hashmap_get(&ix, ns->selfs.data[i].lock, &j)) {
            ns->selfs.data[i].t1 = old->selfs.data[j].t1;
            ns->selfs.data[i].t2 = old->selfs.data[j].t2;
        }
    }
    base_hashmap_clear(&ix);
    for (size_t i = 0; i < old->spawns.len; i++)
        base_hashmap_put(&ix, old->spawns.data[i].inst, i);
    for (size_t i = 0; i < ns->spawns.len; i++) {
        uint64_t j;
        if (base_hashmap_get(&ix, ns->spawns.data[i].inst, &j))
            ns->spawns.data[i].trace = old->spawns.data[j].trace;
    }
    base_hashmap_free(&ix);
}

/* In a component widened as a whole, the values a function returns only
 * grow from round to round: the new set is joined with the last round's,
 * and unknown (DL_NONE: the caller names the result by the call, as for
 * any function with one return of an unknown value) stays unknown. Without this the returned set need not settle: a caller's local
 * that may hold more than DL_MAX_ENV_VALUES values falls back to naming
 * itself, so a set that grows past the bound in one round shrinks in the
 * next and grows again (xz-utils' filter initialisers, which reach one
 * another through `next->init`, went round with a period of four). The
 * union only adds values a caller may see (more names, fewer branches
 * pruned), so the summary still over-approximates; the values are classes
 * (widen_summary), finitely many, so the union settles. */
static void widen_ret(dl_ctx *c, const dl_summary *old, dl_summary *ns)
{
    if (old->ret == ns->ret || ns->ret == DL_NONE)
        return;
    ns->ret = old->ret == DL_NONE ? DL_NONE : dl_set_union(c, old->ret, ns->ret);
    ns->fingerprint = fingerprint(ns);
}

static bool analyse_func(dl_ctx *c, const ir_func *f)
{
    uint32_t fi = dl_func_index(c, f);
    dl_summary ns;
    analyse_into(c, f, NULL, NULL, NULL, 0, &ns);
    dl_summary *old = &c->sums[fi];
    if (c->widen_all && old->done) {
        keep_traces(c, old, &ns);
        widen_ret(c, old, &ns);
    }
    bool changed = !old->done || old->fingerprint != ns.fingerprint;
    dl_summary_free(old);
    *old = ns;
    return changed;
}

/* --- call graph and SCCs (Tarjan, iterative) --- */

typedef struct cg {
    uint32_t **succ;
    uint32_t *nsucc;
} cg;

static void build_cg(dl_ctx *c, cg *g)
{
    const ir_program *p = c->prog;
    g->succ = base_xcalloc(p->nfuncs + 1, sizeof *g->succ);
    g->nsucc = base_xcalloc(p->nfuncs + 1, sizeof *g->nsucc);
    BASE_VEC(uint32_t) tmp = { 0 };
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        tmp.len = 0;
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind != IR_S_CALL)
                continue;
            const ir_func *targets[256];
            uint32_t nt = dl_call_targets(c, s, DL_NONE, targets, 256);
            for (uint32_t k = 0; k < nt; k++) {
                uint32_t gi = dl_func_index(c, targets[k]);
                if (gi != DL_NONE)
                    base_vec_push(&tmp, gi);
            }
        }
        g->nsucc[fi] = (uint32_t)tmp.len;
        g->succ[fi] = base_xmalloc((tmp.len + 1) * sizeof(uint32_t));
        if (tmp.len)
            memcpy(g->succ[fi], tmp.data, tmp.len * sizeof(uint32_t));
    }
    base_vec_free(&tmp);
}

static void free_cg(const ir_program *p, cg *g)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        free(g->succ[i]);
    free(g->succ);
    free(g->nsucc);
}

static void analyse_scc(dl_ctx *c, const uint32_t *members, uint32_t n, const cg *g)
{
    const ir_program *p = c->prog;
    bool cyclic = n > 1;
    if (!cyclic)
        for (uint32_t k = 0; k < g->nsucc[members[0]]; k++)
            if (g->succ[members[0]][k] == members[0])
                cyclic = true;
    unsigned cap = c->opts->max_scc_iters ? c->opts->max_scc_iters : 16;
    c->cur_scc++;
    for (uint32_t i = 0; i < n; i++)
        c->scc_of[members[i]] = c->cur_scc;
    c->funcs_done += n;
    if (dl_out_of_budget(c)) { /* left out: summaries that do nothing, never cached */
        for (uint32_t i = 0; i < n; i++) {
            empty_summary(c, &c->sums[members[i]]);
            c->sums[members[i]].done = true;
            c->funcs_unsummarised += p->funcs[members[i]]->has_body;
        }
        return;
    }
    c->summary_cut = false;
    c->bind_used = false;
    c->spec_gen++;
    c->scc_started = base_now();
    if (c->opts->progress) { /* every component: the caller limits the redraws by time */
        char phase[160];
        snprintf(phase, sizeof phase, "summaries (%.100s)",
                 base_sym_str(p->syms, p->funcs[members[0]]->name));
        c->opts->progress(c->opts->progress_ctx, phase, c->funcs_done, p->nfuncs, 0);
    }
    /* --cache: the component's key covers its members' IR and what they
     * see of their callees (dl_cache.h); a hit replaces the analysis */
    uint64_t key = 0;
    const dl_summary_store *st = c->store;
    if (st) {
        BASE_VEC(uint32_t) callees = { 0 };
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t k = 0; k < g->nsucc[members[i]]; k++)
                if (c->scc_of[g->succ[members[i]][k]] != c->cur_scc)
                    base_vec_push(&callees, g->succ[members[i]][k]);
        key = st->key(st->impl, members, n, callees.data, (uint32_t)callees.len);
        base_vec_free(&callees);
        if (st->load(st->impl, key, members, n))
            return;
    }
    /* rounds over the members that may change: at first all, then the
     * callers (inside the component) of those whose summary changed */
    uint8_t *dirty = base_xcalloc(n + 1, 1), *next = base_xcalloc(n + 1, 1);
    memset(dirty, 1, n);
    kv_vec callers = { 0 }; /* (callee index, caller index) inside, sorted */
    if (cyclic) {
        base_hashmap ix;
        base_hashmap_init(&ix);
        for (uint32_t i = 0; i < n; i++)
            base_hashmap_put(&ix, members[i], i);
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t e = 0; e < g->nsucc[members[k]]; e++) {
                uint64_t j;
                if (base_hashmap_get(&ix, g->succ[members[k]][e], &j))
                    base_vec_push(&callers, ((kv){ (uint32_t)j, k }));
            }
        base_hashmap_free(&ix);
        qsort(callers.data, callers.len, sizeof *callers.data, kv_cmp);
    }
    /* a large component (calls through pointers to many candidates) is
     * widened from its first round: its summaries would grow with every
     * round otherwise */
    c->widen_all = cyclic && n > DL_WIDEN_SCC;
    /* its widened summaries settle, but a change takes a round per call
     * it climbs: four times the rounds (rsyslog's 313 functions: 19) */
    if (c->widen_all && !c->opts->max_scc_iters)
        cap *= 4;
    bool settled = !cyclic;
    for (unsigned round = 0; round < (cyclic ? cap : 1); round++) {
        bool changed = false;
        memset(next, 0, n);
        /* the members in reverse order of discovery (dl_scc gives the
         * component's root first): callees mostly before their callers, so
         * one round carries a change up many calls */
        for (uint32_t i = n; i-- > 0;) {
            if (!dirty[i])
                continue;
            if (dl_out_of_budget(c)) {
                c->summary_cut = true; /* the rest keep what they had */
                break;
            }
            const ir_func *f = p->funcs[members[i]];
            if (!f->has_body) {
                c->sums[members[i]].done = true;
                continue;
            }
            size_t prov = c->prov_used;
            bool ch = analyse_func(c, f);
            /* a member that used a provisional specialisation sees the
             * component through it: it is analysed again in each round */
            if (c->prov_used != prov)
                next[i] = 1;
            if (!ch)
                continue;
            changed = true;
            int at = kv_find(&callers, i); /* some (i, caller) pair */
            if (at >= 0) {
                size_t lo = (size_t)at;
                while (lo > 0 && callers.data[lo - 1].k == i)
                    lo--;
                for (size_t e = lo; e < callers.len && callers.data[e].k == i; e++)
                    next[callers.data[e].v] = 1;
            }
        }
        settled = !changed;
        if (!changed || c->summary_cut)
            break;
        memcpy(dirty, next, n);
        c->spec_gen++;
        /* from the third round on, every summary of a component that has
         * not settled is widened (classes do not grow with the recursion) */
        c->widen_all = c->widen_all || round + 1 >= DL_WIDEN_ROUND;
    }
    c->widen_all = false;
    if (cyclic && !settled && !c->summary_cut) {
        /* the last round still changed a summary: what there is may miss
         * dependencies of further rounds; the run says it is incomplete */
        c->summary_cut = true;
        c->unsettled = true;
    }
    free(dirty);
    free(next);
    base_vec_free(&callers);
    if (c->summary_cut)
        c->funcs_unsummarised += n; /* cut short by a budget: not cached */
    else if (st && !c->bind_used) /* bindings or per-object stores: not in its key */
        st->store(st->impl, key, members, n);
}

typedef struct scc_walk {
    dl_ctx *c;
    const cg *g;
} scc_walk;

static bool cg_succ(void *ctx, uint32_t v, uint32_t k, uint32_t *w)
{
    const cg *g = ((scc_walk *)ctx)->g;
    if (k >= g->nsucc[v])
        return false;
    *w = g->succ[v][k];
    return true;
}

/* Callees' components come first, so each is summarised after them. */
static void cg_emit(void *ctx, const uint32_t *nodes, uint32_t n)
{
    scc_walk *w = ctx;
    analyse_scc(w->c, nodes, n, w->g);
}

void dl_summarise_all(dl_ctx *c)
{
    const ir_program *p = c->prog;
    uint32_t nf = p->nfuncs;
    cg g;
    build_cg(c, &g);
    c->scc_of = base_xcalloc(nf + 1, sizeof *c->scc_of);
    c->branches_on_param = base_xcalloc(nf + 1, 1);
    c->cur_scc = 0;
    scc_walk w = { c, &g };
    dl_scc(nf, cg_succ, cg_emit, &w);
    free_cg(p, &g);
}

/* Recursive (and error-checking) mutexes, before any summary: the lock
 * paths of every LOCK_INIT of such a kind (globals are exact; any path that
 * ends in a field of a named struct marks that field, unless the same field
 * is also initialised as an ordinary mutex somewhere). */
void dl_prepass_recursive(dl_ctx *c)
{
    const ir_program *p = c->prog;
    dl_state st;
    state_init(c, &st);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        fn_an a = { 0 };
        a.c = c;
        a.f = f;
        a.fi = fi;
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind != IR_S_LOCK_INIT || !s->rhs)
                continue;
            bool rec = s->lock_kind == IR_LOCK_MUTEX_RECURSIVE ||
                       s->lock_kind == IR_LOCK_MUTEX_ERRORCHECK;
            uint32_t locks = lock_paths(&a, &st, s->rhs);
            for (uint32_t k = 0; k < dl_set_len(c, locks); k++) {
                uint32_t L = dl_set_data(c, locks)[k];
                uint64_t fk = dl_field_key(c, L);
                if (rec) {
                    base_hashmap_put(&c->rec_locks, L, 1);
                    if (fk)
                        base_hashmap_put(&c->rec_fields, fk, 1);
                } else if (fk) {
                    base_hashmap_put(&c->nonrec_fields, fk, 1);
                }
            }
        }
    }
    state_free(&st);
}
