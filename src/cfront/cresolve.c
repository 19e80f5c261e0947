/* cresolve: the functions a call through a pointer may reach.
 *
 * After every unit is lowered, each CALL and ASYNC whose callee is not a
 * function name gets its candidates (ir.h: cands). A callee that is a
 * parameter of a function with internal linkage, never called through a
 * pointer, never assigned and never address-taken, carries exactly what
 * its direct callers pass: a fixpoint over the call graph collects those
 * functions (a call `wrap(t, worker, arg)` makes worker the candidate of
 * wrap's `pthread_create(t, NULL, func, arg)`). Everything else falls back
 * to the address-taken functions of a fitting type, the sound choice when
 * nothing better is known. */
#include <stdlib.h>

#include "base/hashmap.h"
#include "base/xalloc.h"
#include "cfront/lower.h"

/* Parameter types a call through a pointer may pass between: the same,
 * two pointers (C code passes T* where void* is declared), or integers of
 * one width. */
static bool compatible(const ir_type *a, const ir_type *b)
{
    if (ir_type_eq(a, b))
        return true;
    if (a->kind == IR_T_PTR && b->kind == IR_T_PTR)
        return true;
    return a->kind == IR_T_INT && b->kind == IR_T_INT && a->bits == b->bits;
}

static bool fits(const ir_type *call, const ir_type *fn)
{
    if (call->kind != IR_T_FUNC || fn->kind != IR_T_FUNC)
        return false;
    if (call->variadic && call->nparams == 0)
        return true; /* K&R: f() says nothing of the parameters */
    if (call->nparams != fn->nparams || !compatible(call->to, fn->to))
        return false;
    for (uint32_t i = 0; i < call->nparams; i++)
        if (!compatible(call->params[i], fn->params[i]))
            return false;
    return true;
}

/* What reaches one parameter of a function with a body, as far as its
 * direct callers show: the functions passed for it. unknown: something
 * else may come in (a value computed or loaded, a caller through a
 * pointer, the parameter assigned in the body). */
typedef struct param_flow {
    BASE_VEC(const ir_func *) funcs;
    bool unknown;
} param_flow;

typedef struct flow_ctx {
    ir_program *p;
    uint32_t *first;   /* per function: index of its first parameter in flows */
    param_flow *flows; /* every parameter of every function */
} flow_ctx;

static const ir_expr *strip_casts(const ir_expr *e)
{
    while (e && e->kind == IR_E_CAST)
        e = e->a;
    return e;
}

static int param_index(const ir_func *f, const ir_var *v)
{
    if (!v || v->kind != IR_V_PARAM)
        return -1;
    for (uint32_t i = 0; i < f->nparams; i++)
        if (f->params[i] == v)
            return (int)i;
    return -1;
}

static bool flow_add(param_flow *to, const ir_func *g)
{
    for (size_t i = 0; i < to->funcs.len; i++)
        if (to->funcs.data[i] == g)
            return false;
    base_vec_push(&to->funcs, g);
    return true;
}

/* Adds what the argument expression a (in caller fi) may carry to `to`. */
static bool flow_arg(flow_ctx *x, uint32_t fi, const ir_expr *a, param_flow *to)
{
    const ir_func *f = x->p->funcs[fi];
    a = strip_casts(a);
    if (to->unknown)
        return false;
    if (a->kind == IR_E_FUNC)
        return flow_add(to, a->func);
    if (a->kind == IR_E_CONST && a->value == 0)
        return false; /* NULL */
    int pi = a->kind == IR_E_VAR ? param_index(f, a->var) : -1;
    if (pi < 0) {
        to->unknown = true;
        return true;
    }
    const param_flow *from = &x->flows[x->first[fi] + (uint32_t)pi];
    if (from->unknown) {
        to->unknown = true;
        return true;
    }
    bool changed = false;
    for (size_t i = 0; i < from->funcs.len; i++)
        changed |= flow_add(to, from->funcs.data[i]);
    return changed;
}

/* A parameter the body assigns, or whose address escapes, carries more
 * than its callers pass. */
static void mark_assigned_params(flow_ctx *x, uint32_t fi)
{
    const ir_func *f = x->p->funcs[fi];
    for (uint32_t k = 0; k < f->nparams; k++)
        if (f->params[k]->address_taken)
            x->flows[x->first[fi] + k].unknown = true;
    for (uint32_t i = 0; i < f->nstmts; i++) {
        const ir_expr *l = f->stmts[i].lhs;
        int pi = l && l->kind == IR_E_VAR ? param_index(f, l->var) : -1;
        if (pi >= 0)
            x->flows[x->first[fi] + (uint32_t)pi].unknown = true;
    }
}

static void compute_flows(flow_ctx *x)
{
    ir_program *p = x->p;
    uint32_t total = 0;
    x->first = base_xmalloc((p->nfuncs + 1) * sizeof *x->first);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        x->first[fi] = total;
        total += p->funcs[fi]->nparams;
    }
    x->flows = base_xcalloc(total ? total : 1, sizeof *x->flows);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        const ir_func *f = p->funcs[fi];
        mark_assigned_params(x, fi);
        if (f->address_taken || !f->has_body || f->external_linkage)
            for (uint32_t k = 0; k < f->nparams; k++) /* callers we cannot see */
                x->flows[x->first[fi] + k].unknown = true;
    }
    /* function index by pointer, for the callees of direct calls */
    base_hashmap index;
    base_hashmap_init(&index);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++)
        base_hashmap_put(&index, (uint64_t)(uintptr_t)p->funcs[fi], fi);
    for (bool changed = true; changed;) { /* monotone: sets only grow */
        changed = false;
        for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
            const ir_func *f = p->funcs[fi];
            for (uint32_t i = 0; i < f->nstmts; i++) {
                const ir_stmt *s = &f->stmts[i];
                uint64_t gi;
                if (s->kind != IR_S_CALL || !s->callee || s->callee->kind != IR_E_FUNC ||
                    !base_hashmap_get(&index, (uint64_t)(uintptr_t)s->callee->func, &gi))
                    continue;
                const ir_func *g = p->funcs[gi];
                for (uint32_t k = 0; k < s->nargs && k < g->nparams; k++)
                    changed |= flow_arg(x, fi, s->args[k], &x->flows[x->first[gi] + k]);
            }
        }
    }
    base_hashmap_free(&index);
}

static void free_flows(flow_ctx *x)
{
    uint32_t total = 0;
    for (uint32_t fi = 0; fi < x->p->nfuncs; fi++)
        total += x->p->funcs[fi]->nparams;
    for (uint32_t i = 0; i < total; i++)
        base_vec_free(&x->flows[i].funcs);
    free(x->flows);
    free(x->first);
}

/* Matches calls through pointers with the functions they may reach: the
 * functions its callers pass, when the callee is a parameter only direct
 * calls of a static function fill (a thread-start wrapper such as xz's
 * mythread_create); otherwise every address-taken function of a fitting
 * type. */
void cf_resolve_indirect_calls(cf_ctx *c)
{
    ir_program *p = c->p;
    flow_ctx x = { .p = p };
    compute_flows(&x);
    for (uint32_t fi = 0; fi < p->nfuncs; fi++) {
        ir_func *f = p->funcs[fi];
        for (uint32_t i = 0; i < f->nstmts; i++) {
            ir_stmt *s = &f->stmts[i];
            if ((s->kind != IR_S_CALL && s->kind != IR_S_ASYNC) || !s->callee ||
                s->callee->kind == IR_E_FUNC)
                continue;
            const ir_type *ft = s->callee->type && s->callee->type->kind == IR_T_PTR
                                    ? s->callee->type->to : NULL;
            BASE_VEC(const ir_func *) cands = { 0 };
            const ir_expr *callee = strip_casts(s->callee);
            int pi = callee->kind == IR_E_VAR ? param_index(f, callee->var) : -1;
            const param_flow *pf = pi >= 0 ? &x.flows[x.first[fi] + (uint32_t)pi] : NULL;
            if (pf && !pf->unknown && pf->funcs.len) {
                for (size_t k = 0; k < pf->funcs.len; k++)
                    base_vec_push(&cands, pf->funcs.data[k]);
            } else {
                for (uint32_t k = 0; k < p->nfuncs; k++) {
                    const ir_func *g = p->funcs[k];
                    if (!g->address_taken)
                        continue;
                    bool match = ft && fits(ft, g->type);
                    if (s->kind == IR_S_ASYNC && !(ft && ft->kind == IR_T_FUNC))
                        match = g->type->kind == IR_T_FUNC && g->type->nparams <= 1;
                    if (match)
                        base_vec_push(&cands, g);
                }
            }
            s->cands = BASE_ARENA_ARRAY(&p->arena, const ir_func *, cands.len);
            for (size_t k = 0; k < cands.len; k++)
                s->cands[k] = cands.data[k];
            s->ncands = (uint32_t)cands.len;
            base_vec_free(&cands);
        }
    }
    free_flows(&x);
}
