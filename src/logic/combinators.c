#include "logic/combinators.h"

const logic_formula *logic_sub(logic_builder *b, const logic_rexpr *p, const logic_rexpr *q)
{
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    return logic_forall(b, x, logic_forall(b, y,
        logic_implies(b, logic_apply(b, p, x, y), logic_apply(b, q, x, y))));
}

const logic_formula *logic_req(logic_builder *b, const logic_rexpr *r, const logic_rexpr *s)
{
    return logic_and2(b, logic_sub(b, r, s), logic_sub(b, s, r));
}

const logic_formula *logic_trans(logic_builder *b, const logic_rexpr *r)
{
    /* Nested so that the grounder skips z when r(x,y) is constant false. */
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b), z = logic_fresh_var(b);
    return logic_forall(b, x, logic_forall(b, y, logic_implies(b, logic_apply(b, r, x, y),
        logic_forall(b, z, logic_implies(b, logic_apply(b, r, y, z), logic_apply(b, r, x, z))))));
}

const logic_formula *logic_irrefl(logic_builder *b, const logic_rexpr *r)
{
    int32_t x = logic_fresh_var(b);
    return logic_forall(b, x, logic_not(b, logic_apply(b, r, x, x)));
}

const logic_formula *logic_empty(logic_builder *b, const logic_rexpr *r)
{
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    return logic_forall(b, x, logic_forall(b, y, logic_not(b, logic_apply(b, r, x, y))));
}

static void defer(logic_builder *b, logic_lazy_kind k, const char *name, const logic_rexpr *r)
{
    logic_lazy *l = base_arena_alloc(&b->arena, sizeof *l);
    *l = (logic_lazy){ k, name, r, b->deferred };
    b->deferred = l;
}

const logic_formula *logic_acyclic(logic_builder *b, const char *name, const logic_rexpr *r,
                                   const logic_rexpr *exclude)
{
    if (b->lazy) {
        defer(b, LOGIC_LAZY_ACYCLIC, name, r);
        return logic_true(b);
    }
    logic_sovar *t = logic_new_sovar(b, name, 2);
    t->bound = r;
    t->bound_elim = true;
    t->exclude = exclude;
    const logic_rexpr *tr = logic_r_sov(b, t);
    /* Transitivity only where the conclusion lies in the fill graph, and
     * asymmetry: a cycle of r, all of its edges in T, loses its vertex
     * eliminated first to an edge of T between its neighbours on the cycle
     * (the fill graph has that edge, so the guarded clause forces it), down
     * to two vertices, which asymmetry forbids; a loop, irreflexivity.
     * Without a cycle, T = r+ within the fill graph satisfies it all. */
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b), z = logic_fresh_var(b);
    const logic_formula *trans = logic_forall(b, x, logic_forall(b, y, logic_implies(b,
        logic_sov2(b, t, x, y), logic_forall(b, z, logic_implies(b, logic_sov2(b, t, y, z),
            logic_implies(b, logic_sov_may2(b, t, x, z), logic_sov2(b, t, x, z)))))));
    int32_t p = logic_fresh_var(b), q = logic_fresh_var(b);
    const logic_formula *asym = logic_forall(b, p, logic_forall(b, q, logic_implies(b,
        logic_sov2(b, t, p, q), logic_not(b, logic_sov2(b, t, q, p)))));
    const logic_formula *parts[4] = { logic_sub(b, r, tr), trans, asym, logic_irrefl(b, tr) };
    return logic_so_exists(b, t, logic_and(b, parts, 4));
}

const logic_formula *logic_acyclic_so(logic_builder *b, const char *name, const logic_rexpr *r)
{
    logic_sovar *S = logic_new_sovar(b, name, 1);
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    const logic_formula *nonempty = logic_exists(b, x, logic_sov1(b, S, x));
    const logic_formula *minimal = logic_exists(b, x, logic_and2(b, logic_sov1(b, S, x),
        logic_forall(b, y, logic_implies(b, logic_sov1(b, S, y),
                                         logic_not(b, logic_apply(b, r, y, x))))));
    return logic_so_forall(b, S, logic_implies(b, nonempty, minimal));
}

const logic_formula *logic_total_on(logic_builder *b, const logic_rexpr *r, const logic_rexpr *set,
                                    const logic_rexpr *same)
{
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    const logic_formula *guard[4] = { logic_apply(b, same, x, y), logic_apply(b, set, x, 0),
                                      logic_apply(b, set, y, 0), logic_not(b, logic_eq(b, x, y)) };
    const logic_formula *tot = logic_forall(b, x, logic_forall(b, y,
        logic_implies(b, logic_and(b, guard, 4),
                      logic_or2(b, logic_apply(b, r, x, y), logic_apply(b, r, y, x)))));
    /* lazy: a total relation without cycles is transitive */
    if (b->lazy)
        defer(b, LOGIC_LAZY_ACYCLIC, "total order", r);
    const logic_formula *parts[3] = { b->lazy ? logic_true(b) : logic_trans(b, r),
                                      logic_irrefl(b, r), tot };
    return logic_and(b, parts, 3);
}

const logic_formula *logic_functional_inv(logic_builder *b, const logic_rexpr *r)
{
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b), z = logic_fresh_var(b);
    return logic_forall(b, z, logic_forall(b, x, logic_implies(b, logic_apply(b, r, x, z),
        logic_forall(b, y, logic_implies(b, logic_apply(b, r, y, z), logic_eq(b, x, y))))));
}

const logic_formula *logic_covers(logic_builder *b, const logic_rexpr *r, const logic_rexpr *set)
{
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    return logic_forall(b, y, logic_implies(b, logic_apply(b, set, y, 0),
        logic_exists(b, x, logic_apply(b, r, x, y))));
}

const logic_formula *logic_sub_split(logic_builder *b, const logic_rexpr *r, const logic_rexpr *v)
{
    if (r->kind == LOGIC_R_UNION)
        return logic_and2(b, logic_sub_split(b, r->a, v), logic_sub_split(b, r->b, v));
    if (r->kind == LOGIC_R_EMPTY)
        return logic_true(b);
    if (r->kind == LOGIC_R_SEQ) {
        int32_t x = logic_fresh_var(b), y = logic_fresh_var(b), z = logic_fresh_var(b);
        return logic_forall(b, x, logic_forall(b, z, logic_implies(b, logic_apply(b, r->a, x, z),
            logic_forall(b, y, logic_implies(b, logic_apply(b, r->b, z, y), logic_apply(b, v, x, y))))));
    }
    return logic_sub(b, r, v);
}

const logic_rexpr *logic_over(logic_builder *b, const char *name, const logic_rexpr *r,
                              const logic_rexpr *exclude, const logic_formula **constraint,
                              const logic_sovar **var)
{
    logic_sovar *t = logic_new_sovar(b, name, r->arity);
    t->bound = r;
    t->exclude = exclude;
    const logic_rexpr *tr = logic_r_sov(b, t);
    *constraint = logic_sub_split(b, r, tr);
    if (var)
        *var = t;
    return tr;
}

const logic_rexpr *logic_plus(logic_builder *b, const char *name, const logic_rexpr *r,
                              const logic_rexpr *exclude, const logic_formula **constraint,
                              const logic_sovar **var)
{
    logic_sovar *t = logic_new_sovar(b, name, 2);
    t->bound = r;
    t->bound_closure = true;
    t->exclude = exclude;
    const logic_rexpr *tr = logic_r_sov(b, t);
    if (b->lazy)
        defer(b, LOGIC_LAZY_TRANS, name, tr);
    *constraint = logic_and2(b, logic_sub_split(b, r, tr),
                             b->lazy ? logic_true(b) : logic_trans(b, tr));
    if (var)
        *var = t;
    return tr;
}
