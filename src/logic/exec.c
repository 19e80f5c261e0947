#include "logic/exec.h"

#include "logic/combinators.h"
#include "logic/vocab.h"

/* The events in every maximal configuration, as X's must-bits: by `config`
 * below, an event outside X has a po-predecessor outside X or conflicts
 * with an event of X; so an event that conflicts with none and whose
 * predecessors are all in X is in X. Iterated from none (an event on a po
 * cycle never qualifies). NULL when no event qualifies. */
static const uint64_t *always_run(logic_builder *b)
{
    const logic_structure *st = b->st;
    uint32_t n = st->n;
    int po = logic_structure_find(st, LOGIC_V_PO), cf = logic_structure_find(st, LOGIC_V_CONFLICT);
    if (n == 0 || po < 0 || st->rels[po].arity != 2 || (cf >= 0 && st->rels[cf].arity != 2))
        return NULL;
    uint64_t *must = base_arena_zalloc(&b->arena, (n / 64 + 1) * sizeof *must);
    bool any = false;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t e = 0; e < n; e++) {
            if (logic_bit_get(must, e))
                continue;
            bool ok = true;
            for (uint32_t q = 0; q < n && ok; q++)
                ok = !(cf >= 0 && logic_rel_get2(st, (uint32_t)cf, q, e)) &&
                     !(logic_rel_get2(st, (uint32_t)po, q, e) && !logic_bit_get(must, q));
            if (ok) {
                logic_bit_set(must, e);
                changed = any = true;
            }
        }
    }
    return any ? must : NULL;
}

void logic_exec_build(logic_builder *b, logic_exec *e)
{
    const logic_rexpr *po = logic_named(b, LOGIC_V_PO, 2);
    const logic_rexpr *conflict = logic_named(b, LOGIC_V_CONFLICT, 2);
    const logic_rexpr *R = logic_named(b, LOGIC_V_READ, 1);
    const logic_rexpr *W = logic_named(b, LOGIC_V_WRITE, 1);
    const logic_rexpr *loc = logic_named(b, LOGIC_V_LOC, 2);
    const logic_rexpr *ext = logic_named(b, LOGIC_V_EXT, 2);

    e->X = logic_new_sovar(b, "X", 1);
    e->X->must_bits = always_run(b);
    e->rf = logic_new_sovar(b, "rf", 2);
    e->rf->bound = logic_named(b, LOGIC_V_RF_CAND, 2);
    e->co = logic_new_sovar(b, "co", 2);
    e->co->bound = logic_named(b, LOGIC_V_CO_CAND, 2);

    const logic_rexpr *x = logic_r_sov(b, e->X);
    e->x = x;
    e->rfr = logic_r_sov(b, e->rf);
    e->cor = logic_r_sov(b, e->co);
    e->conflict = conflict;
    e->fr = logic_seq(b, logic_inv(b, e->rfr), e->cor);
    e->po = logic_restrict(b, x, po, x);
    e->poloc = logic_inter(b, e->po, loc);
    e->rfe = logic_inter(b, e->rfr, ext);
    e->coe = logic_inter(b, e->cor, ext);
    e->fre = logic_inter(b, e->fr, ext);
    e->com = logic_union(b, e->rfr, logic_union(b, e->cor, e->fr));

    const logic_formula *parts[8];
    uint32_t n = 0;
    int32_t p = logic_fresh_var(b), q = logic_fresh_var(b);
    /* X is downward closed under po and conflict free. */
    parts[n++] = logic_sub(b, logic_inter(b, po, logic_prod(b, logic_r_all(b, 1), x)),
                           logic_prod(b, x, logic_r_all(b, 1)));
    parts[n++] = logic_empty(b, logic_inter(b, conflict, logic_prod(b, x, x)));
    /* X is maximal: an event outside X has a predecessor outside X or
     * conflicts with an event of X. */
    parts[n++] = logic_forall(b, p, logic_or2(b, logic_apply(b, x, p, 0),
        logic_exists(b, q, logic_or2(b,
            logic_and2(b, logic_apply(b, po, q, p), logic_not(b, logic_apply(b, x, q, 0))),
            logic_and2(b, logic_apply(b, conflict, q, p), logic_apply(b, x, q, 0))))));
    e->config = logic_and(b, parts, n);
    /* rf: within X, every read of X reads from exactly one write. */
    parts[n++] = logic_sub(b, e->rfr, logic_prod(b, x, x));
    parts[n++] = logic_covers(b, e->rfr, logic_inter(b, R, x));
    parts[n++] = logic_functional_inv(b, e->rfr);
    /* co: within X, a strict total order on the writes of each location. */
    parts[n++] = logic_sub(b, e->cor, logic_prod(b, x, x));
    parts[n++] = logic_total_on(b, e->cor, logic_inter(b, W, x), loc);
    e->wellformed = logic_and(b, parts, n);
}

void logic_exec_config_only(logic_builder *b, logic_exec *e)
{
    e->rf->bound = logic_r_empty(b, 2);
    e->co->bound = logic_r_empty(b, 2);
    e->wellformed = e->config;
}

const logic_formula *logic_exec_close(logic_builder *b, const logic_exec *e,
                                      const logic_formula *body)
{
    const logic_formula *f = logic_and2(b, e->wellformed, body);
    f = logic_so_exists(b, e->co, f);
    f = logic_so_exists(b, e->rf, f);
    return logic_so_exists(b, e->X, f);
}
