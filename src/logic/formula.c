#include "logic/formula.h"

#include <string.h>

#include "base/strbuf.h"

void logic_builder_init(logic_builder *b, const logic_structure *st)
{
    memset(b, 0, sizeof *b);
    base_arena_init(&b->arena);
    b->st = st;
}

void logic_builder_free(logic_builder *b)
{
    base_arena_free(&b->arena);
    memset(b, 0, sizeof *b);
}

int32_t logic_fresh_var(logic_builder *b)
{
    return b->nvars++;
}

logic_sovar *logic_new_sovar(logic_builder *b, const char *name, uint32_t arity)
{
    logic_sovar *v = BASE_ARENA_NEW(&b->arena, logic_sovar);
    v->name = base_arena_strdup(&b->arena, name);
    v->id = b->nsov++;
    v->arity = arity;
    return v;
}

static logic_formula *node(logic_builder *b, logic_kind k, uint32_t nkids)
{
    logic_formula *f = BASE_ARENA_NEW(&b->arena, logic_formula);
    f->kind = k;
    f->nkids = nkids;
    if (nkids)
        f->kids = BASE_ARENA_ARRAY(&b->arena, const logic_formula *, nkids);
    return f;
}

const logic_formula *logic_true(logic_builder *b)
{
    static const logic_formula t = { .kind = LOGIC_TRUE };
    (void)b;
    return &t;
}

const logic_formula *logic_false(logic_builder *b)
{
    static const logic_formula f = { .kind = LOGIC_FALSE };
    (void)b;
    return &f;
}

const logic_formula *logic_rel1(logic_builder *b, uint32_t rel, logic_term x)
{
    logic_formula *f = node(b, LOGIC_REL, 0);
    f->rel = rel;
    f->args[0] = x;
    return f;
}

const logic_formula *logic_rel2(logic_builder *b, uint32_t rel, logic_term x, logic_term y)
{
    logic_formula *f = node(b, LOGIC_REL, 0);
    f->rel = rel;
    f->args[0] = x;
    f->args[1] = y;
    return f;
}

const logic_formula *logic_sov1(logic_builder *b, const logic_sovar *v, logic_term x)
{
    logic_formula *f = node(b, LOGIC_SOV, 0);
    f->sov = v;
    f->args[0] = x;
    return f;
}

static const logic_formula *sov_pair(logic_builder *b, logic_kind k, const logic_sovar *v,
                                     logic_term x, logic_term y)
{
    logic_formula *f = node(b, k, 0);
    f->sov = v;
    f->args[0] = x;
    f->args[1] = y;
    return f;
}

const logic_formula *logic_sov2(logic_builder *b, const logic_sovar *v, logic_term x, logic_term y)
{
    return sov_pair(b, LOGIC_SOV, v, x, y);
}

const logic_formula *logic_sov_may2(logic_builder *b, const logic_sovar *v, logic_term x, logic_term y)
{
    return sov_pair(b, LOGIC_SOV_MAY, v, x, y);
}

const logic_formula *logic_eq(logic_builder *b, logic_term x, logic_term y)
{
    if (x == y)
        return logic_true(b);
    if (logic_term_is_const(x) && logic_term_is_const(y))
        return logic_false(b); /* distinct constants */
    logic_formula *f = node(b, LOGIC_EQ, 0);
    f->args[0] = x;
    f->args[1] = y;
    return f;
}

const logic_formula *logic_not(logic_builder *b, const logic_formula *g)
{
    if (g->kind == LOGIC_TRUE)
        return logic_false(b);
    if (g->kind == LOGIC_FALSE)
        return logic_true(b);
    if (g->kind == LOGIC_NOT)
        return g->kids[0];
    logic_formula *f = node(b, LOGIC_NOT, 1);
    f->kids[0] = g;
    return f;
}

static const logic_formula *nary(logic_builder *b, logic_kind k, const logic_formula **fs, uint32_t n)
{
    logic_kind unit = k == LOGIC_AND ? LOGIC_TRUE : LOGIC_FALSE;
    logic_kind zero = k == LOGIC_AND ? LOGIC_FALSE : LOGIC_TRUE;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (fs[i]->kind == zero)
            return fs[i];
        if (fs[i]->kind != unit)
            m++;
    }
    if (m == 0)
        return k == LOGIC_AND ? logic_true(b) : logic_false(b);
    logic_formula *f = node(b, k, m);
    m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (fs[i]->kind != unit)
            f->kids[m++] = fs[i];
    if (m == 1)
        return f->kids[0];
    return f;
}

const logic_formula *logic_and(logic_builder *b, const logic_formula **fs, uint32_t n)
{
    return nary(b, LOGIC_AND, fs, n);
}

const logic_formula *logic_or(logic_builder *b, const logic_formula **fs, uint32_t n)
{
    return nary(b, LOGIC_OR, fs, n);
}

const logic_formula *logic_and2(logic_builder *b, const logic_formula *f, const logic_formula *g)
{
    const logic_formula *fs[2] = { f, g };
    return logic_and(b, fs, 2);
}

const logic_formula *logic_or2(logic_builder *b, const logic_formula *f, const logic_formula *g)
{
    const logic_formula *fs[2] = { f, g };
    return logic_or(b, fs, 2);
}

const logic_formula *logic_implies(logic_builder *b, const logic_formula *f, const logic_formula *g)
{
    if (f->kind == LOGIC_FALSE || g->kind == LOGIC_TRUE)
        return logic_true(b);
    if (f->kind == LOGIC_TRUE)
        return g;
    if (g->kind == LOGIC_FALSE)
        return logic_not(b, f);
    logic_formula *n = node(b, LOGIC_IMPLIES, 2);
    n->kids[0] = f;
    n->kids[1] = g;
    return n;
}

const logic_formula *logic_iff(logic_builder *b, const logic_formula *f, const logic_formula *g)
{
    logic_formula *n = node(b, LOGIC_IFF, 2);
    n->kids[0] = f;
    n->kids[1] = g;
    return n;
}

static const logic_formula *quant(logic_builder *b, logic_kind k, int32_t var, const logic_formula *body)
{
    if (body->kind == LOGIC_TRUE || body->kind == LOGIC_FALSE)
        return body; /* the universe is never empty when grounding happens */
    logic_formula *f = node(b, k, 1);
    f->var = var;
    f->kids[0] = body;
    return f;
}

const logic_formula *logic_forall(logic_builder *b, int32_t var, const logic_formula *body)
{
    return quant(b, LOGIC_FORALL, var, body);
}

const logic_formula *logic_exists(logic_builder *b, int32_t var, const logic_formula *body)
{
    return quant(b, LOGIC_EXISTS, var, body);
}

const logic_formula *logic_so_exists(logic_builder *b, const logic_sovar *v, const logic_formula *body)
{
    logic_formula *f = node(b, LOGIC_SO_EXISTS, 1);
    f->sov = v;
    f->kids[0] = body;
    return f;
}

const logic_formula *logic_so_forall(logic_builder *b, const logic_sovar *v, const logic_formula *body)
{
    logic_formula *f = node(b, LOGIC_SO_FORALL, 1);
    f->sov = v;
    f->kids[0] = body;
    return f;
}

/* --- relational expressions --- */

static logic_rexpr *rnode(logic_builder *b, logic_rkind k, uint32_t arity)
{
    logic_rexpr *r = BASE_ARENA_NEW(&b->arena, logic_rexpr);
    r->kind = k;
    r->arity = arity;
    return r;
}

const logic_rexpr *logic_r_empty(logic_builder *b, uint32_t arity)
{
    return rnode(b, LOGIC_R_EMPTY, arity);
}

const logic_rexpr *logic_r_all(logic_builder *b, uint32_t arity)
{
    return rnode(b, LOGIC_R_ALL, arity);
}

const logic_rexpr *logic_r_rel(logic_builder *b, uint32_t rel)
{
    logic_rexpr *r = rnode(b, LOGIC_R_REL, b->st->rels[rel].arity);
    r->rel = rel;
    return r;
}

const logic_rexpr *logic_named(logic_builder *b, const char *name, uint32_t arity)
{
    int i = logic_structure_find(b->st, name);
    if (i < 0)
        return logic_r_empty(b, arity);
    if (b->st->rels[i].arity != arity) {
        if (!b->error)
            b->error = "relation used with the wrong arity";
        return logic_r_empty(b, arity);
    }
    return logic_r_rel(b, (uint32_t)i);
}

const logic_rexpr *logic_r_sov(logic_builder *b, const logic_sovar *v)
{
    logic_rexpr *r = rnode(b, LOGIC_R_SOV, v->arity);
    r->sov = v;
    return r;
}

static const logic_rexpr *rbin(logic_builder *b, logic_rkind k, uint32_t arity,
                               const logic_rexpr *x, const logic_rexpr *y)
{
    logic_rexpr *r = rnode(b, k, arity);
    r->a = x;
    r->b = y;
    return r;
}

const logic_rexpr *logic_union(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y)
{
    if (x->kind == LOGIC_R_EMPTY)
        return y;
    if (y->kind == LOGIC_R_EMPTY)
        return x;
    return rbin(b, LOGIC_R_UNION, x->arity, x, y);
}

const logic_rexpr *logic_inter(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y)
{
    if (x->kind == LOGIC_R_EMPTY || y->kind == LOGIC_R_EMPTY)
        return logic_r_empty(b, x->arity);
    return rbin(b, LOGIC_R_INTER, x->arity, x, y);
}

const logic_rexpr *logic_diff(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y)
{
    if (x->kind == LOGIC_R_EMPTY || y->kind == LOGIC_R_EMPTY)
        return x;
    return rbin(b, LOGIC_R_DIFF, x->arity, x, y);
}

const logic_rexpr *logic_seq(logic_builder *b, const logic_rexpr *x, const logic_rexpr *y)
{
    if (x->kind == LOGIC_R_EMPTY || y->kind == LOGIC_R_EMPTY)
        return logic_r_empty(b, 2);
    return rbin(b, LOGIC_R_SEQ, 2, x, y);
}

const logic_rexpr *logic_inv(logic_builder *b, const logic_rexpr *x)
{
    if (x->kind == LOGIC_R_EMPTY)
        return x;
    return rbin(b, LOGIC_R_INV, 2, x, NULL);
}

const logic_rexpr *logic_id(logic_builder *b, const logic_rexpr *set)
{
    if (set->kind == LOGIC_R_EMPTY)
        return logic_r_empty(b, 2);
    return rbin(b, LOGIC_R_ID, 2, set, NULL);
}

const logic_rexpr *logic_prod(logic_builder *b, const logic_rexpr *s, const logic_rexpr *t)
{
    if (s->kind == LOGIC_R_EMPTY || t->kind == LOGIC_R_EMPTY)
        return logic_r_empty(b, 2);
    return rbin(b, LOGIC_R_PROD, 2, s, t);
}

const logic_rexpr *logic_restrict(logic_builder *b, const logic_rexpr *s, const logic_rexpr *r,
                                  const logic_rexpr *t)
{
    return logic_inter(b, r, logic_prod(b, s, t));
}

const logic_rexpr *logic_r_formula(logic_builder *b, uint32_t arity, int32_t x, int32_t y,
                                   const logic_formula *body)
{
    logic_rexpr *r = rnode(b, LOGIC_R_FORMULA, arity);
    r->body = body;
    r->fv[0] = x;
    r->fv[1] = y;
    return r;
}

/* Substitutes terms for a formula's free variables by wrapping it: the
 * grounder binds fv to the terms. We express r(x,y) for a FORMULA rexpr as
 * exists u v (u = x /\ v = y /\ body(u, v)) only when the terms differ from
 * the free variables; the grounder short-circuits the equalities. */
static const logic_formula *bind_formula(logic_builder *b, const logic_rexpr *r, logic_term x,
                                         logic_term y)
{
    const logic_formula *f = r->body;
    if (r->arity == 2 && y != r->fv[1])
        f = logic_exists(b, r->fv[1], logic_and2(b, logic_eq(b, r->fv[1], y), f));
    if (x != r->fv[0])
        f = logic_exists(b, r->fv[0], logic_and2(b, logic_eq(b, r->fv[0], x), f));
    return f;
}

const logic_formula *logic_apply(logic_builder *b, const logic_rexpr *r, logic_term x, logic_term y)
{
    switch (r->kind) {
    case LOGIC_R_EMPTY:
        return logic_false(b);
    case LOGIC_R_ALL:
        return logic_true(b);
    case LOGIC_R_REL:
        return r->arity == 1 ? logic_rel1(b, r->rel, x) : logic_rel2(b, r->rel, x, y);
    case LOGIC_R_SOV:
        return r->arity == 1 ? logic_sov1(b, r->sov, x) : logic_sov2(b, r->sov, x, y);
    case LOGIC_R_UNION:
        return logic_or2(b, logic_apply(b, r->a, x, y), logic_apply(b, r->b, x, y));
    case LOGIC_R_INTER:
        return logic_and2(b, logic_apply(b, r->a, x, y), logic_apply(b, r->b, x, y));
    case LOGIC_R_DIFF:
        return logic_and2(b, logic_apply(b, r->a, x, y), logic_not(b, logic_apply(b, r->b, x, y)));
    case LOGIC_R_SEQ: {
        int32_t z = logic_fresh_var(b);
        return logic_exists(b, z, logic_and2(b, logic_apply(b, r->a, x, z), logic_apply(b, r->b, z, y)));
    }
    case LOGIC_R_INV:
        return logic_apply(b, r->a, y, x);
    case LOGIC_R_ID:
        return logic_and2(b, logic_eq(b, x, y), logic_apply(b, r->a, x, 0));
    case LOGIC_R_PROD:
        return logic_and2(b, logic_apply(b, r->a, x, 0), logic_apply(b, r->b, y, 0));
    case LOGIC_R_FORMULA:
        return bind_formula(b, r, x, y);
    }
    return logic_false(b);
}

/* --- printing --- */

static void print_term(logic_term t, base_strbuf *out)
{
    if (logic_term_is_const(t))
        base_strbuf_printf(out, "e%u", logic_term_elem(t));
    else
        base_strbuf_printf(out, "v%d", t);
}

static void print_f(const logic_builder *b, const logic_formula *f, base_strbuf *out)
{
    static const char *const ops[] = { [LOGIC_AND] = " & ", [LOGIC_OR] = " | ",
                                       [LOGIC_IMPLIES] = " -> ", [LOGIC_IFF] = " <-> " };
    switch (f->kind) {
    case LOGIC_TRUE: base_strbuf_puts(out, "true"); return;
    case LOGIC_FALSE: base_strbuf_puts(out, "false"); return;
    case LOGIC_REL:
    case LOGIC_SOV: {
        uint32_t ar = f->kind == LOGIC_REL ? b->st->rels[f->rel].arity : f->sov->arity;
        base_strbuf_puts(out, f->kind == LOGIC_REL ? b->st->rels[f->rel].name : f->sov->name);
        base_strbuf_putc(out, '(');
        print_term(f->args[0], out);
        if (ar == 2) {
            base_strbuf_putc(out, ',');
            print_term(f->args[1], out);
        }
        base_strbuf_putc(out, ')');
        return;
    }
    case LOGIC_SOV_MAY:
        base_strbuf_printf(out, "may:%s(", f->sov->name);
        print_term(f->args[0], out);
        base_strbuf_putc(out, ',');
        print_term(f->args[1], out);
        base_strbuf_putc(out, ')');
        return;
    case LOGIC_EQ:
        print_term(f->args[0], out);
        base_strbuf_putc(out, '=');
        print_term(f->args[1], out);
        return;
    case LOGIC_NOT:
        base_strbuf_putc(out, '~');
        print_f(b, f->kids[0], out);
        return;
    case LOGIC_AND:
    case LOGIC_OR:
    case LOGIC_IMPLIES:
    case LOGIC_IFF:
        base_strbuf_putc(out, '(');
        for (uint32_t i = 0; i < f->nkids; i++) {
            if (i)
                base_strbuf_puts(out, ops[f->kind]);
            print_f(b, f->kids[i], out);
        }
        base_strbuf_putc(out, ')');
        return;
    case LOGIC_FORALL:
    case LOGIC_EXISTS:
        base_strbuf_printf(out, "%s v%d. ", f->kind == LOGIC_FORALL ? "A" : "E", f->var);
        print_f(b, f->kids[0], out);
        return;
    case LOGIC_SO_EXISTS:
    case LOGIC_SO_FORALL:
        base_strbuf_printf(out, "%s %s/%u. ", f->kind == LOGIC_SO_FORALL ? "A" : "E",
                           f->sov->name, f->sov->arity);
        print_f(b, f->kids[0], out);
        return;
    }
}

void logic_formula_print(const logic_builder *b, const logic_formula *f, base_strbuf *out)
{
    print_f(b, f, out);
}
