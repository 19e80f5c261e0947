/* mm_jr: Jeffrey and Riely's model of relaxed memory over event structures
 * ("On Thin Air Reads", LICS 2016), in the second-order form PrideMM gives
 * it: one formula per event structure, whose size depends on the
 * structure, with universal second-order quantifiers (a QBF).
 *
 * Configurations are sets of events that are downward closed under po,
 * conflict free, and contain the initial writes. A write justifies a read
 * of the same location and value (jf-cand: in any thread or branch, so a
 * value may be justified by a branch the execution does not take).
 *
 *   justify(A, B)  every read of B that is not in A has a justifying
 *                  write in A
 *   step(A, B)     A ⊆ B, B a configuration, justify(A, B): B extends A by
 *                  events whose new reads are justified by A (PrideMM's
 *                  "always justifies")
 *   reach(A, B)    step* : B is reached from A by justified steps
 *   aej(A, B)      A ⊆ B and, whatever configuration C' the adversary
 *                  reaches from A, the model reaches some C'' from C' that
 *                  justifies B ("always eventually justifies"):
 *                  ∀C'. reach(A, C') → ∃C''. reach(C', C'') ∧ justify(C'', B)
 *   jr(X)          the maximal configuration X is well justified: a chain
 *                  IW = C0 ⊆ C1 ⊆ … ⊆ Ck = X with aej(Ci, Ci+1) for each i
 *
 * reach and the chain are transitive closures of relations between sets,
 * which second-order logic cannot state in general; over one structure they
 * unroll to a bounded number of steps (PrideMM unrolls both to the number
 * of events). The bound here is 1 + D, D the largest number of reads of any
 * configuration (the sum over threads of the most reads on one path), which
 * is exact:
 *  - a step that adds no read merges into the step before it (its new
 *    reads are none, and the step before justified its own), so every
 *    step but the first adds a read: a step* path needs at most 1 + D
 *    steps, and a step may repeat its set (A = B is a step);
 *  - likewise in the chain: if Ci+1 adds no read to Ci, justify(C'', Ci)
 *    gives justify(C'', Ci+1), so aej(Ci-1, Ci) gives aej(Ci-1, Ci+1); and
 *    aej(A, A) holds (take C'' = C'), so the chain may repeat a set.
 * Every quantifier has its own fresh set variables, so the formula is
 * ∃X C1..Ck-1 ∀(the adversary's chains) ∃(the model's answers): three
 * quantifier levels.
 *
 * Set variables range over the thread events only (their bound excludes
 * the initial writes), and a configuration is the variable's set joined
 * with IW, so the initial writes cost no variables. */
#include "logic/mm.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "logic/vocab.h"

typedef struct jr {
    logic_builder *b;
    const logic_rexpr *R, *IW, *po, *conflict, *jf, *events; /* events: thread events */
    uint32_t steps;  /* unrolling bound, 1 + D */
    uint32_t nsets;  /* set variables made, for names */
} jr;

uint32_t logic_mm_jr_read_depth(const logic_structure *st)
{
    int R = logic_structure_find(st, LOGIC_V_READ), po = logic_structure_find(st, LOGIC_V_PO);
    int in = logic_structure_find(st, LOGIC_V_INT);
    if (R < 0 || po < 0 || in < 0)
        return 0;
    uint32_t n = st->n;
    uint32_t *depth = base_xcalloc(n ? n : 1, sizeof *depth);
    for (uint32_t r = 0; r < n; r++) {
        if (!logic_rel_get1(st, (uint32_t)R, r))
            continue;
        depth[r] = 1; /* r and the reads po-before it: one path */
        for (uint32_t p = 0; p < n; p++)
            if (logic_rel_get1(st, (uint32_t)R, p) && logic_rel_get2(st, (uint32_t)po, p, r))
                depth[r]++;
    }
    /* Per thread (int), the deepest read; the first one on ties. */
    uint32_t total = 0;
    for (uint32_t r = 0; r < n; r++) {
        if (!depth[r])
            continue;
        bool best = true;
        for (uint32_t q = 0; q < n && best; q++)
            if (q != r && depth[q] && logic_rel_get2(st, (uint32_t)in, r, q) &&
                (depth[q] > depth[r] || (depth[q] == depth[r] && q < r)))
                best = false;
        if (best)
            total += depth[r];
    }
    free(depth);
    return total;
}

/* A fresh set variable; the configuration it stands for is it joined with IW. */
static logic_sovar *new_set(jr *j, const char *what)
{
    char name[32];
    snprintf(name, sizeof name, "%s%u", what, j->nsets++);
    logic_sovar *v = logic_new_sovar(j->b, name, 1);
    v->bound = j->events;
    return v;
}

static const logic_rexpr *config_of(jr *j, const logic_sovar *v)
{
    return logic_union(j->b, logic_r_sov(j->b, v), j->IW);
}

static const logic_formula *in(jr *j, const logic_rexpr *s, int32_t x)
{
    return logic_apply(j->b, s, x, 0);
}

/* ∀x. A(x) → B(x) */
static const logic_formula *subset(jr *j, const logic_rexpr *a, const logic_rexpr *c)
{
    int32_t x = logic_fresh_var(j->b);
    return logic_forall(j->b, x, logic_implies(j->b, in(j, a, x), in(j, c, x)));
}

/* ∀x y. po(x,y) → S(y) → S(x) */
static const logic_formula *down(jr *j, const logic_rexpr *s)
{
    logic_builder *b = j->b;
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    return logic_forall(b, x, logic_forall(b, y, logic_implies(b, logic_apply(b, j->po, x, y),
        logic_implies(b, in(j, s, y), in(j, s, x)))));
}

/* ∀x y. conflict(x,y) → ¬(S(x) ∧ S(y)) */
static const logic_formula *conflict_free(jr *j, const logic_rexpr *s)
{
    logic_builder *b = j->b;
    int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
    return logic_forall(b, x, logic_forall(b, y, logic_implies(b, logic_apply(b, j->conflict, x, y),
        logic_not(b, logic_and2(b, in(j, s, x), in(j, s, y))))));
}

/* ∀y. R(y) → B(y) → A(y) ∨ ∃w. jf(w,y) ∧ A(w) */
static const logic_formula *justify(jr *j, const logic_rexpr *a, const logic_rexpr *c)
{
    logic_builder *b = j->b;
    int32_t y = logic_fresh_var(b), w = logic_fresh_var(b);
    const logic_formula *by = logic_exists(b, w, logic_and2(b, logic_apply(b, j->jf, w, y),
                                                            in(j, a, w)));
    return logic_forall(b, y, logic_implies(b, in(j, j->R, y),
        logic_implies(b, in(j, c, y), logic_or2(b, in(j, a, y), by))));
}

/* step(A, B), given that A is a configuration: B is one too (conflict
 * freedom is checked once, on the last set of a chain, which contains the
 * others). */
static const logic_formula *step(jr *j, const logic_rexpr *a, const logic_rexpr *c)
{
    const logic_formula *parts[3] = { subset(j, a, c), down(j, c), justify(j, a, c) };
    return logic_and(j->b, parts, 3);
}

/* reach(A, S_steps) over fresh sets S_1..S_steps (vars[0..steps)): the
 * formula without its quantifiers; *last is the configuration reached. */
static const logic_formula *reach(jr *j, const logic_rexpr *a, logic_sovar **vars, const char *what,
                                  const logic_rexpr **last)
{
    const logic_formula **parts = base_xmalloc((j->steps + 1) * sizeof *parts);
    const logic_rexpr *prev = a;
    for (uint32_t i = 0; i < j->steps; i++) {
        vars[i] = new_set(j, what);
        const logic_rexpr *cur = config_of(j, vars[i]);
        parts[i] = step(j, prev, cur);
        prev = cur;
    }
    parts[j->steps] = conflict_free(j, prev);
    const logic_formula *f = logic_and(j->b, parts, j->steps + 1);
    free(parts);
    *last = prev;
    return f;
}

/* The greedy closure of A within A ∪ U (U any set of events): G0 = A and
 * Gj(e) ↔ Gj-1(e) ∨ (U(e) ∧ ∀p. po(p,e) → Gj(p) ∧ (R(e) → ∃w. jf(w,e) ∧ Gj-1(w))),
 * one set variable per j, defined by the iff (the ancestors of e come
 * first, so each Gj has exactly one solution). Gj is the largest set that
 * justified steps reach from A within A ∪ U in j steps: each Gj-1 → Gj is a
 * step, and by induction any chain A = x0 ⊆ … ⊆ xj ⊆ A ∪ U of steps has
 * xj ⊆ Gj. The definitions go into *defs; vars[0..steps) receive the
 * variables; the result is Gsteps. */
static const logic_rexpr *closure(jr *j, const logic_rexpr *a, const logic_rexpr *u,
                                  logic_sovar **vars, const logic_formula **defs)
{
    logic_builder *b = j->b;
    const logic_formula **parts = base_xmalloc(j->steps * sizeof *parts);
    const logic_rexpr *prev = a;
    for (uint32_t i = 0; i < j->steps; i++) {
        vars[i] = new_set(j, "G");
        const logic_rexpr *cur = config_of(j, vars[i]);
        int32_t e = logic_fresh_var(b), p = logic_fresh_var(b), w = logic_fresh_var(b);
        const logic_formula *parents = logic_forall(b, p,
            logic_implies(b, logic_apply(b, j->po, p, e), in(j, cur, p)));
        const logic_formula *justified = logic_implies(b, in(j, j->R, e),
            logic_exists(b, w, logic_and2(b, logic_apply(b, j->jf, w, e), in(j, prev, w))));
        const logic_formula *add[3] = { in(j, u, e), parents, justified };
        const logic_formula *def = logic_or2(b, in(j, prev, e), logic_and(b, add, 3));
        /* Only thread events are variables (IW is in every set). */
        parts[i] = logic_forall(b, e, logic_implies(b, in(j, j->events, e),
            logic_iff(b, logic_sov1(b, vars[i], e), def)));
        prev = cur;
    }
    *defs = logic_and(b, parts, j->steps);
    free(parts);
    return prev;
}

/* aej(A, B) for the adversary's choice U, given A ⊆ B configurations:
 * ∀C'. reach(A, C') → ∃C''. reach(C', C'') ∧ justify(C'', B).
 * The adversary's C' is written as the greedy closure of A within A ∪ U for
 * a universal set U (A ∪ U conflict free): every such closure is reached
 * from A, and every C' reached from A is the closure of A within C'. So
 * the universal player chooses n bits, not a chain, and the closure's
 * variables are existential (innermost), fixed by their definitions:
 * cf(A ∪ U) → ∃G. defs(G) ∧ ∃C''. reach(G, C'') ∧ justify(C'', B).
 * The caller quantifies U: one U serves every step of the chain, since
 * ∀U. (φ1 ∧ φ2) is ∀U. φ1 ∧ ∀U. φ2 — with a U per step, the universal
 * player of a clausal-abstraction solver would search the product of the
 * steps' choices. */
static const logic_formula *aej(jr *j, const logic_rexpr *a, const logic_rexpr *c,
                                const logic_rexpr *ur)
{
    logic_builder *b = j->b;
    logic_sovar **gs = base_xmalloc(j->steps * sizeof *gs);
    logic_sovar **ys = base_xmalloc(j->steps * sizeof *ys);
    const logic_rexpr *adv, *mine;
    const logic_formula *defs;
    adv = closure(j, a, ur, gs, &defs);
    const logic_formula *ante = conflict_free(j, logic_union(b, a, ur));
    const logic_formula *cons = reach(j, adv, ys, "J", &mine);
    cons = logic_and2(b, cons, justify(j, mine, c));
    for (uint32_t i = j->steps; i-- > 0;)
        cons = logic_so_exists(b, ys[i], cons);
    cons = logic_and2(b, defs, cons);
    for (uint32_t i = j->steps; i-- > 0;)
        cons = logic_so_exists(b, gs[i], cons);
    free(gs);
    free(ys);
    return logic_implies(b, ante, cons);
}

const logic_formula *logic_mm_jr(logic_builder *b, const logic_exec *e)
{
    jr j = { .b = b };
    j.R = logic_named(b, LOGIC_V_READ, 1);
    j.IW = logic_named(b, LOGIC_V_INIT, 1);
    j.po = logic_named(b, LOGIC_V_PO, 2);
    j.conflict = logic_named(b, LOGIC_V_CONFLICT, 2);
    j.jf = logic_named(b, LOGIC_V_JF_CAND, 2);
    j.events = logic_diff(b, logic_r_all(b, 1), j.IW);
    j.steps = 1 + logic_mm_jr_read_depth(b->st);

    /* The chain IW = C0 ⊆ C1 ⊆ … ⊆ Ck = X, k = steps:
     * ∃C1..Ck-1. ∧i (down(Ci) ∧ Ci-1 ⊆ Ci) ∧ ∀U. ∧i aej(Ci-1, Ci). */
    uint32_t k = j.steps;
    logic_sovar **cs = base_xmalloc(k * sizeof *cs);
    const logic_formula **parts = base_xmalloc(2 * k * sizeof *parts);
    const logic_formula **games = base_xmalloc(k * sizeof *games);
    logic_sovar *u = new_set(&j, "U");
    const logic_rexpr *ur = logic_r_sov(b, u);
    uint32_t n = 0;
    const logic_rexpr *prev = j.IW;
    for (uint32_t i = 1; i <= k; i++) {
        const logic_rexpr *cur;
        if (i < k) {
            cs[i] = new_set(&j, "C");
            cur = config_of(&j, cs[i]);
            parts[n++] = down(&j, cur);
        } else {
            cur = e->x; /* X is a maximal configuration (exec's wellformed) */
        }
        if (i > 1)
            parts[n++] = subset(&j, prev, cur);
        games[i - 1] = aej(&j, prev, cur, ur);
        prev = cur;
    }
    /* U ranges over configurations (IW ∪ U down-closed, U conflict free):
     * every C' the adversary reaches is the closure of A within A ∪ C',
     * and C' is a configuration, so these U already give every C'; the
     * others only repeat them (the closure G within A ∪ U is reached, and
     * is the closure of A within A ∪ G). Fewer universal moves, the same
     * answers. */
    const logic_formula *uconf = logic_and2(b, down(&j, config_of(&j, u)), conflict_free(&j, ur));
    parts[n++] = logic_so_forall(b, u, logic_implies(b, uconf, logic_and(b, games, k)));
    const logic_formula *f = logic_and(b, parts, n);
    for (uint32_t i = k; i-- > 1;)
        f = logic_so_exists(b, cs[i], f);
    free(games);
    free(cs);
    free(parts);
    return f;
}
