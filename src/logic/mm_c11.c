/* mm_c11: RC11, the repaired C11 model of Lahav, Vafeiadis, Kang, Hur and
 * Dreyer (PLDI 2017), as herdtools7's rc11.cat states it, over LISA
 * annotations.
 *
 * Modes come from annotations: r[na|rlx|acq|sc], w[na|rlx|rel|sc],
 * rmw[rlx|acq|rel|acq_rel|sc] (both events of the rmw carry the mode),
 * f[acq|rel|acq_rel|sc] (`rel_acq` is read as `acq_rel`). A memory access
 * with none of the atomic modes (no annotation, or `na`) is non-atomic;
 * the initial writes are non-atomic too. A fence without a mode has no
 * effect.
 *
 *   sb   = po
 *   rs   = [W]; (sb & loc)?; [W & atomic]; (rf; rmw)*
 *   sw   = [REL]; ([F]; sb)?; rs; rf; [R & atomic]; (sb; [F])?; [ACQ]
 *   hb   = (sb | sw)+
 *   eco  = (rf | co | fr)+ = rf | co | fr | (co | fr); rf
 *   coherence     irreflexive hb; eco?    and irreflexive rmw; eco
 *   atomicity     empty rmw & (fr; co)
 *   SC            acyclic psc, psc = psc_base | psc_F with
 *                 scb = sb | (sb \ loc); hb; (sb \ loc) | hb & loc | co | fr
 *                 psc_base = ([SC] | [F & SC]; hb?); scb; ([SC] | hb?; [F & SC])
 *                 psc_F = [F & SC]; (hb | hb; eco; hb); [F & SC]
 *   no-thin-air   acyclic (sb | rf)
 * where REL is rel | acq_rel | sc and ACQ is acq | acq_rel | sc.
 *
 * Undefined behaviour (the `undef` formula): a data race, two events of
 * different threads on one location, at least one a write, neither initial,
 * not both atomic, and not ordered by hb either way.
 *
 * The closures (rf; rmw)+ and hb are existential SO variables containing
 * their generators and transitive (logic_plus). Every axiom, and the race
 * formula, uses them only negatively (a larger hb forbids more and races
 * less), so the least choice — the true closure — is always the best one
 * and the encoding is exact. The (rf; rmw)+ variable is quantified outside
 * hb so that hb's bound is computed from its table. */
#include "logic/combinators.h"
#include "logic/mm.h"
#include "logic/vocab.h"

static const logic_rexpr *modes(logic_builder *b, const char *const *names, uint32_t n)
{
    const logic_rexpr *r = logic_r_empty(b, 1);
    for (uint32_t i = 0; i < n; i++)
        r = logic_union(b, r, logic_named(b, names[i], 1));
    return r;
}

/* [S]; r and r; [S], testing the set first. */
static const logic_rexpr *from(logic_builder *b, const logic_rexpr *s, const logic_rexpr *r)
{
    return logic_inter(b, logic_prod(b, s, logic_r_all(b, 1)), r);
}

static const logic_rexpr *to(logic_builder *b, const logic_rexpr *r, const logic_rexpr *s)
{
    return logic_inter(b, logic_prod(b, logic_r_all(b, 1), s), r);
}

const logic_formula *logic_mm_c11_undef(logic_builder *b, const logic_exec *e,
                                        const logic_formula **undef)
{
    static const char *const atomic_names[] = {
        LOGIC_V_ANNOT_PREFIX "rlx", LOGIC_V_ANNOT_PREFIX "acq", LOGIC_V_ANNOT_PREFIX "rel",
        LOGIC_V_ANNOT_PREFIX "acq_rel", LOGIC_V_ANNOT_PREFIX "rel_acq", LOGIC_V_ANNOT_PREFIX "sc",
    };
    static const char *const rel_names[] = {
        LOGIC_V_ANNOT_PREFIX "rel", LOGIC_V_ANNOT_PREFIX "acq_rel", LOGIC_V_ANNOT_PREFIX "rel_acq",
        LOGIC_V_ANNOT_PREFIX "sc",
    };
    static const char *const acq_names[] = {
        LOGIC_V_ANNOT_PREFIX "acq", LOGIC_V_ANNOT_PREFIX "acq_rel", LOGIC_V_ANNOT_PREFIX "rel_acq",
        LOGIC_V_ANNOT_PREFIX "sc",
    };
    const logic_rexpr *all = logic_r_all(b, 1);
    const logic_rexpr *R = logic_named(b, LOGIC_V_READ, 1);
    const logic_rexpr *W = logic_named(b, LOGIC_V_WRITE, 1);
    const logic_rexpr *F = logic_named(b, LOGIC_V_FENCE, 1);
    const logic_rexpr *M = logic_named(b, LOGIC_V_MEM, 1);
    const logic_rexpr *IW = logic_named(b, LOGIC_V_INIT, 1);
    const logic_rexpr *loc = logic_named(b, LOGIC_V_LOC, 2);
    const logic_rexpr *ext = logic_named(b, LOGIC_V_EXT, 2);
    const logic_rexpr *rmw = logic_named(b, LOGIC_V_RMW, 2);
    const logic_rexpr *A = logic_inter(b, M, modes(b, atomic_names, 6));
    const logic_rexpr *REL = modes(b, rel_names, 4);
    const logic_rexpr *ACQ = modes(b, acq_names, 4);
    const logic_rexpr *SC = logic_named(b, LOGIC_V_ANNOT_PREFIX "sc", 1);
    const logic_rexpr *FSC = logic_inter(b, F, SC);
    const logic_rexpr *id = logic_id(b, all);
    const logic_rexpr *sb = e->po, *rf = e->rfr, *co = e->cor, *fr = e->fr;

    /* rs = [W]; (sb & loc)?; [W & atomic]; (rf; rmw)* */
    const logic_formula *rs_closed;
    const logic_sovar *rsv;
    const logic_rexpr *rfrmw = logic_plus(b, "rf;rmw", logic_seq(b, rf, rmw), e->conflict,
                                          &rs_closed, &rsv);
    const logic_rexpr *WA = logic_inter(b, W, A);
    const logic_rexpr *rs0 = logic_union(b, logic_id(b, WA), to(b, from(b, W, e->poloc), WA));
    const logic_rexpr *rs = logic_union(b, rs0, logic_seq(b, rs0, rfrmw));

    /* sw = [REL]; ([F]; sb)?; rs; rf; [R & atomic]; (sb; [F])?; [ACQ] */
    const logic_rexpr *pre = logic_union(b, logic_id(b, REL), from(b, logic_inter(b, F, REL), sb));
    const logic_rexpr *post = logic_union(b, logic_id(b, ACQ), to(b, sb, logic_inter(b, F, ACQ)));
    const logic_rexpr *sw = logic_seq(b, pre, logic_seq(b, rs, logic_seq(b,
                                 to(b, rf, logic_inter(b, R, A)), post)));

    const logic_formula *hb_closed;
    const logic_sovar *hbv;
    const logic_rexpr *hb = logic_plus(b, "hb", logic_union(b, sb, sw), e->conflict, &hb_closed, &hbv);
    const logic_rexpr *hbq = logic_union(b, id, hb);

    const logic_rexpr *cofr = logic_union(b, co, fr);
    const logic_rexpr *eco = logic_union(b, rf, logic_union(b, cofr, logic_seq(b, cofr, rf)));

    /* psc */
    const logic_rexpr *sbl = logic_diff(b, sb, loc);
    const logic_rexpr *scb = logic_union(b, sb, logic_union(b,
        logic_seq(b, sbl, logic_seq(b, hb, sbl)),
        logic_union(b, logic_inter(b, hb, loc), cofr)));
    const logic_rexpr *scl = logic_union(b, logic_id(b, SC), from(b, FSC, hbq));
    const logic_rexpr *scr = logic_union(b, logic_id(b, SC), to(b, hbq, FSC));
    const logic_rexpr *pscb = logic_seq(b, scl, logic_seq(b, scb, scr));
    const logic_rexpr *pscf = to(b, from(b, FSC, logic_union(b, hb,
                                 logic_seq(b, hb, logic_seq(b, eco, hb)))), FSC);
    const logic_rexpr *psc = logic_union(b, pscb, pscf);

    const logic_formula *parts[8] = {
        hb_closed,
        logic_irrefl(b, hb),
        logic_irrefl(b, logic_seq(b, hb, eco)),
        logic_irrefl(b, logic_seq(b, rmw, eco)),
        logic_empty(b, logic_inter(b, rmw, logic_seq(b, fr, co))),
        logic_acyclic(b, "psc", psc, e->conflict),
        logic_acyclic(b, "sb|rf", logic_union(b, sb, rf), e->conflict),
    };
    const logic_formula *body = logic_so_exists(b, hbv, logic_and(b, parts, 7));
    body = logic_so_exists(b, rsv, logic_and2(b, rs_closed, body));

    if (undef) {
        /* dr = (cnf & ext) \ (hb | hb^-1 | A * A) on the events of X */
        const logic_rexpr *xs = logic_prod(b, e->x, e->x);
        const logic_rexpr *cnf = logic_diff(b,
            logic_inter(b, logic_union(b, logic_prod(b, W, all), logic_prod(b, all, W)), loc),
            logic_union(b, logic_prod(b, IW, all), logic_prod(b, all, IW)));
        const logic_rexpr *dr = logic_diff(b, logic_inter(b, logic_inter(b, cnf, ext), xs),
            logic_union(b, logic_prod(b, A, A), logic_union(b, hb, logic_inv(b, hb))));
        int32_t x = logic_fresh_var(b), y = logic_fresh_var(b);
        *undef = logic_exists(b, x, logic_exists(b, y, logic_apply(b, dr, x, y)));
    }
    return body;
}

const logic_formula *logic_mm_c11(logic_builder *b, const logic_exec *e)
{
    return logic_mm_c11_undef(b, e, NULL);
}
