/* Whether the program gives evidence that a link field may close a cycle
 * (the lock order along a link, dl_threads.c choose, assumes it does not).
 *
 * Evidence: a store into ->f (f of record R) of a value that may come from
 *   (i)   a global or static variable (the head of a list, a ring's anchor:
 *         `tl->next = head`),
 *   (ii)  a read through the same field f (`new->next = head->next`),
 *   (iii) the object itself (`l->next = l`, INIT_LIST_HEAD),
 * or a whole-object copy of R (which copies the field from elsewhere).
 * A store into a fresh object that nothing can reach yet (fresh_store:
 * pushing a new item in front of a list's head, `n->next = head` right
 * after n's allocation) is no evidence whatever it stores.
 * "May come from" is backward reachability over value flow, flow- and
 * context-insensitive: a local from every assignment to it (a call's
 * result from the callee's return values), a parameter from the argument
 * at every direct call, thread start or pointer call that may reach its
 * function. NULL, a fresh allocation, an external call's result and a
 * parameter of a function with no known caller are no evidence; a local
 * whose address is taken is (it may be written unseen). */
#include <stdint.h>

#include "deadlock/dl_internal.h"

typedef struct lwalk {
    dl_ctx *c;
    const ir_type *rec;
    uint32_t field;
    base_hashmap seen; /* var or function pointer (tagged) -> 1 */
} lwalk;

static bool expr_bad(lwalk *w, const ir_func *f, const ir_expr *e, const ir_var *self);

static bool seen(lwalk *w, const void *p, uint64_t tag)
{
    uint64_t key = (uint64_t)(uintptr_t)p ^ tag, v;
    if (base_hashmap_get(&w->seen, key, &v))
        return true;
    base_hashmap_put(&w->seen, key, 1);
    return false;
}

static bool is_link_field(lwalk *w, const ir_expr *e)
{
    return e->kind == IR_E_FIELD && e->field == w->field && e->a->type &&
           (e->a->type->kind == IR_T_STRUCT || e->a->type->kind == IR_T_UNION) &&
           dl_canon_type(w->c, e->a->type) == w->rec;
}

/* an lvalue rooted at a global: g, g.x, g[i] (not through a pointer) */
static bool global_lvalue(const ir_expr *e)
{
    while (e->kind == IR_E_FIELD || e->kind == IR_E_INDEX)
        e = e->a;
    return e->kind == IR_E_VAR && e->var->kind == IR_V_GLOBAL;
}

static bool returns_bad(lwalk *w, const ir_func *g)
{
    if (!g || !g->has_body || seen(w, g, 0x5bd1e995u))
        return false;
    for (uint32_t i = 0; i < g->nstmts; i++)
        if (g->stmts[i].kind == IR_S_RETURN && g->stmts[i].rhs && expr_bad(w, g, g->stmts[i].rhs, NULL))
            return true;
    return false;
}

static bool local_bad(lwalk *w, const ir_func *f, const ir_var *v)
{
    if (v->address_taken)
        return true;
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_stmt *s = &f->stmts[i];
        if (!s->lhs || s->lhs->kind != IR_E_VAR || s->lhs->var != v)
            continue;
        if (s->kind == IR_S_ASSIGN && expr_bad(w, f, s->rhs, NULL))
            return true;
        if (s->kind == IR_S_CALL) {
            if (s->callee && s->callee->kind == IR_E_FUNC) {
                if (returns_bad(w, s->callee->func))
                    return true;
            } else {
                for (uint32_t k = 0; k < s->ncands; k++)
                    if (returns_bad(w, s->cands[k]))
                        return true;
            }
        }
    }
    return false;
}

static bool reaches(const ir_stmt *s, const ir_func *g)
{
    if (s->callee && s->callee->kind == IR_E_FUNC)
        return s->callee->func == g;
    for (uint32_t k = 0; k < s->ncands; k++)
        if (s->cands[k] == g)
            return true;
    return false;
}

static bool param_bad(lwalk *w, const ir_func *g, uint32_t ix)
{
    const ir_program *p = w->c->prog;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind == IR_S_CALL && ix < s->nargs && reaches(s, g) && expr_bad(w, f, s->args[ix], NULL))
                return true;
            if (s->kind == IR_S_ASYNC && ix == 0 && s->rhs && reaches(s, g) && expr_bad(w, f, s->rhs, NULL))
                return true;
        }
    }
    return false;
}

static bool var_bad(lwalk *w, const ir_func *f, const ir_var *v)
{
    if (v->kind == IR_V_GLOBAL)
        return true; /* (i) */
    if (seen(w, v, 0))
        return false;
    if (v->kind == IR_V_LOCAL)
        return local_bad(w, f, v);
    for (uint32_t i = 0; i < f->nparams; i++)
        if (f->params[i] == v)
            return param_bad(w, f, i);
    return false;
}

static bool expr_bad(lwalk *w, const ir_func *f, const ir_expr *e, const ir_var *self)
{
    if (!e)
        return false;
    switch (e->kind) {
    case IR_E_CONST:
    case IR_E_FUNC:
    case IR_E_STRING:
    case IR_E_NONDET:
        return false;
    case IR_E_VAR:
        if (self && e->var == self)
            return true; /* (iii) */
        return var_bad(w, f, e->var);
    case IR_E_FIELD:
        if (is_link_field(w, e))
            return true; /* (ii) */
        return global_lvalue(e);
    case IR_E_INDEX:
        return global_lvalue(e);
    case IR_E_DEREF:
        return false; /* a value read through a pointer (not f): no evidence */
    case IR_E_ADDR: {
        /* the address of (a part of) an object: a global, or one a
         * pointer names (the address is derived from that pointer) */
        const ir_expr *o = e->a;
        while (o->kind == IR_E_FIELD || o->kind == IR_E_INDEX)
            o = o->a;
        if (o->kind == IR_E_DEREF)
            return expr_bad(w, f, o->a, self);
        return o->kind == IR_E_VAR && o->var->kind == IR_V_GLOBAL;
    }
    case IR_E_CAST:
    case IR_E_UNARY:
        return expr_bad(w, f, e->a, self);
    case IR_E_BINARY:
        return expr_bad(w, f, e->a, self) || expr_bad(w, f, e->b, self);
    case IR_E_ITE:
        return expr_bad(w, f, e->b, self) || expr_bad(w, f, e->c, self);
    }
    return true;
}

/* the variable a store's object pointer names: v in v->f, (*v).f */
static const ir_var *store_object(const ir_expr *lhs)
{
    const ir_expr *o = lhs->a;
    if (o->kind == IR_E_DEREF) {
        o = o->a;
        while (o->kind == IR_E_CAST)
            o = o->a;
        return o->kind == IR_E_VAR ? o->var : NULL;
    }
    return NULL;
}

static bool mentions(const ir_expr *e, const ir_var *v)
{
    return e && ((e->kind == IR_E_VAR && e->var == v) || mentions(e->a, v) || mentions(e->b, v) ||
                 mentions(e->c, v));
}

/* an lvalue inside the object v points to: v->a.b[i] (i not naming v) */
static bool inside(const ir_expr *e, const ir_var *v)
{
    while (e->kind == IR_E_FIELD || (e->kind == IR_E_INDEX && !mentions(e->b, v)))
        e = e->a;
    return e->kind == IR_E_DEREF && e->a->kind == IR_E_VAR && e->a->var == v;
}

static bool only_allocated(const ir_func *f, const ir_var *v, const ir_var **from);

/* Whether the store f->stmts[i] into v->f fills in a fresh object nothing
 * can reach yet: v is a local set only by an allocation (directly, or as
 * the cast copy of a temporary that is), and the statements from that
 * allocation up to the store run straight (none is a jump's target) and
 * use v and the temporary only to initialise the object (stores into its
 * fields of values that do not name them, a lock's initialisation). A
 * link out of an object no link leads to closes no cycle. */
static bool fresh_store(const ir_func *f, uint32_t i, const ir_var *v)
{
    const ir_var *vs[2] = { v, NULL };
    if (!v || !only_allocated(f, v, &vs[1]) || (vs[1] && !only_allocated(f, vs[1], &(const ir_var *){ NULL })))
        return false;
    for (uint32_t k = i; k-- > 0;) {
        for (uint32_t j = 0; j < f->nstmts; j++)
            for (uint32_t t = 0; t < f->stmts[j].ntargets; t++)
                if (f->stmts[j].targets[t] == k + 1)
                    return false;
        const ir_stmt *s = &f->stmts[k];
        bool ok = false;
        for (int x = 0; x < 2 && vs[x] && !ok; x++) {
            const ir_var *u = vs[x];
            if (s->kind == IR_S_ALLOC && s->lhs && s->lhs->kind == IR_E_VAR && s->lhs->var == u)
                return true;
            ok = (s->kind == IR_S_ASSIGN && s->lhs && inside(s->lhs, u) && !mentions(s->rhs, vs[0]) &&
                  !mentions(s->rhs, vs[1])) ||
                 (s->kind == IR_S_LOCK_INIT && s->rhs && s->rhs->kind == IR_E_ADDR && inside(s->rhs->a, u));
        }
        if (!ok && vs[1] && s->kind == IR_S_ASSIGN && s->lhs->kind == IR_E_VAR && s->lhs->var == vs[0])
            ok = true; /* v = (T)temporary */
        if (ok)
            continue;
        for (int x = 0; x < 2 && vs[x]; x++) {
            if (s->kind == IR_S_GOTO || mentions(s->lhs, vs[x]) || mentions(s->rhs, vs[x]) ||
                mentions(s->callee, vs[x]))
                return false;
            for (uint32_t a = 0; a < s->nargs; a++)
                if (mentions(s->args[a], vs[x]))
                    return false;
        }
    }
    return false;
}

/* v is a local whose every assignment is an allocation, or a cast copy of
 * one and the same local (then *from is set to it). */
static bool only_allocated(const ir_func *f, const ir_var *v, const ir_var **from)
{
    if (v->kind != IR_V_LOCAL || v->address_taken)
        return false;
    for (uint32_t k = 0; k < f->nstmts; k++) {
        const ir_stmt *s = &f->stmts[k];
        if (!s->lhs || s->lhs->kind != IR_E_VAR || s->lhs->var != v || s->kind == IR_S_ALLOC)
            continue;
        const ir_expr *r = s->kind == IR_S_ASSIGN ? s->rhs : NULL;
        while (r && r->kind == IR_E_CAST)
            r = r->a;
        if (!r || r->kind != IR_E_VAR || r->var == v || (*from && *from != r->var))
            return false;
        *from = r->var;
    }
    return true;
}

static const ir_var *strip_var(const ir_expr *e)
{
    while (e && (e->kind == IR_E_CAST || (e->kind == IR_E_BINARY && e->op == IR_OP_PTR_ADD)))
        e = e->a;
    return e && e->kind == IR_E_VAR ? e->var : NULL;
}

static int param_index(const ir_func *f, const ir_var *v)
{
    for (uint32_t i = 0; v && i < f->nparams; i++)
        if (f->params[i] == v)
            return (int)i;
    return -1;
}

/* Whether some call of g passes one variable as both its parameters i and
 * j (following the caller's own parameters up to depth calls): then
 * `pi->f = pj` may store an object into itself (iii). */
static bool aliased_args(const ir_program *p, const ir_func *g, int i, int j, int depth)
{
    if (depth <= 0)
        return true;
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t k = 0; k < f->nstmts; k++) {
            const ir_stmt *s = &f->stmts[k];
            if (s->kind != IR_S_CALL || (uint32_t)(i > j ? i : j) >= s->nargs || !reaches(s, g))
                continue;
            const ir_var *a = strip_var(s->args[i]), *b = strip_var(s->args[j]);
            if (a && a == b)
                return true;
            int pa = param_index(f, a), pb = param_index(f, b);
            if (pa >= 0 && pb >= 0 && aliased_args(p, f, pa, pb, depth - 1))
                return true;
        }
    }
    return false;
}

static bool field_cyclic(dl_ctx *c, const ir_type *rec, uint32_t field)
{
    lwalk w = { c, rec, field, { 0 } };
    base_hashmap_init(&w.seen);
    bool bad = false;
    const ir_program *p = c->prog;
    for (uint32_t fi = 0; fi < p->nfuncs && !bad; fi++) {
        const ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts && !bad; i++) {
            const ir_stmt *s = &f->stmts[i];
            if (s->kind != IR_S_ASSIGN || !s->lhs)
                continue;
            if (is_link_field(&w, s->lhs)) {
                const ir_var *self = store_object(s->lhs);
                int pi = param_index(f, self), pj = param_index(f, strip_var(s->rhs));
                if (self && mentions(s->rhs, self))
                    bad = true; /* (iii) */
                else if (pi >= 0 && pj >= 0 && pi != pj && aliased_args(p, f, pi, pj, 8))
                    bad = true; /* (iii) through a call */
                else if (!fresh_store(f, i, self))
                    bad = expr_bad(&w, f, s->rhs, self);
            } else if (s->lhs->type && s->lhs->type->kind == IR_T_STRUCT &&
                       dl_canon_type(c, s->lhs->type) == rec && s->rhs->kind != IR_E_CONST) {
                bad = true; /* a whole-object copy */
            }
        }
    }
    base_hashmap_free(&w.seen);
    return bad;
}

bool dl_link_may_cycle(dl_ctx *c, uint32_t link)
{
    const dl_path *f = &c->paths.data[link >> 1];
    const ir_type *rec = (const ir_type *)(uintptr_t)f->b;
    if (!rec)
        return true;
    uint64_t key = base_hash64((uint64_t)(uintptr_t)rec ^ (f->a << 1)), v;
    if (base_hashmap_get(&c->link_cyclic, key, &v))
        return v == 1;
    bool bad = field_cyclic(c, rec, (uint32_t)f->a);
    base_hashmap_put(&c->link_cyclic, key, bad ? 1 : 2);
    return bad;
}
