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
 * their generators and transitive (logic_plus), and the long compositions
 * (rs; rf, sw, eco, the parts of psc) are named by SO variables containing
 * their definitions (logic_over), so that no formula nests more than one
 * sequence. Every axiom, and the race formula, uses all of them only
 * negatively (a larger hb forbids more and races less), so the least choice
 * — the true relation — is always the best one and the encoding is exact.
 * Each variable is quantified outside the ones defined from it, so that
 * their bounds are computed from its table. */
#include <assert.h>

#include "logic/combinators.h"
#include "logic/check.h"
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

/* The SO variables, outermost first, and their constraints (13 are used). */
typedef struct scope {
    const logic_sovar *var[16];
    const logic_formula *constraint[16];
    uint32_t n;
} scope;

static const logic_rexpr *name(logic_builder *b, scope *sc, const char *nm, const logic_rexpr *r,
                               const logic_rexpr *exclude, bool closure)
{
    assert(sc->n < sizeof sc->var / sizeof sc->var[0]);
    const logic_rexpr *v = closure ? logic_plus(b, nm, r, exclude, &sc->constraint[sc->n], &sc->var[sc->n])
                                   : logic_over(b, nm, r, exclude, &sc->constraint[sc->n], &sc->var[sc->n]);
    sc->n++;
    return v;
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
    const logic_rexpr *sb = e->po, *rf = e->rfr, *co = e->cor, *cf = e->conflict;
    const logic_rexpr *fr = e->fr;
    scope sc = { .n = 0 };

    /* rs; rf; [R & atomic] with rs = [W]; (sb & loc)?; [W & atomic]; (rf; rmw)* */
    const logic_rexpr *rfrmw = name(b, &sc, "rf;rmw", logic_seq(b, rf, rmw), cf, true);
    const logic_rexpr *WA = logic_inter(b, W, A);
    const logic_rexpr *rs0 = logic_union(b, logic_id(b, WA), to(b, from(b, W, e->poloc), WA));
    const logic_rexpr *rs = name(b, &sc, "rs", logic_union(b, rs0, logic_seq(b, rs0, rfrmw)), cf, false);
    const logic_rexpr *rsrf = name(b, &sc, "rs;rf", logic_seq(b, rs, to(b, rf, logic_inter(b, R, A))),
                                   cf, false);
    /* sw = [REL]; ([F]; sb)?; rs; rf; [R & atomic]; (sb; [F])?; [ACQ] */
    const logic_rexpr *sw1 = name(b, &sc, "sw1", logic_union(b, from(b, REL, rsrf),
        logic_seq(b, from(b, logic_inter(b, F, REL), sb), rsrf)), cf, false);
    const logic_rexpr *sw = name(b, &sc, "sw", logic_union(b, to(b, sw1, ACQ),
        logic_seq(b, sw1, to(b, sb, logic_inter(b, F, ACQ)))), cf, false);
    const logic_rexpr *hb = name(b, &sc, "hb", logic_union(b, sb, sw), cf, true);

    /* eco = (rf | co | fr)+ = rf | co | fr | (co | fr); rf */
    fr = name(b, &sc, "fr", fr, cf, false);
    const logic_rexpr *cofr = logic_union(b, co, fr);
    const logic_rexpr *eco = name(b, &sc, "eco", logic_union(b, rf, logic_union(b, cofr,
                                  logic_seq(b, cofr, rf))), cf, false);

    /* psc_base = ([SC] | [F & SC]; hb?); scb; ([SC] | hb?; [F & SC]), where
     * [F & SC]; hb? = [F & SC] | [F & SC]; hb and F & SC is within SC. */
    const logic_rexpr *sbl = logic_diff(b, sb, loc);
    const logic_rexpr *hbsbl = name(b, &sc, "hb;sbl", logic_seq(b, hb, sbl), cf, false);
    const logic_rexpr *scb = name(b, &sc, "scb", logic_union(b, sb, logic_union(b,
        logic_seq(b, sbl, hbsbl), logic_union(b, logic_inter(b, hb, loc), cofr))), cf, false);
    const logic_rexpr *left = name(b, &sc, "psc1", logic_union(b, from(b, SC, scb),
        logic_seq(b, from(b, FSC, hb), scb)), cf, false);
    const logic_rexpr *pscb = logic_union(b, to(b, left, SC), logic_seq(b, left, to(b, hb, FSC)));
    /* psc_F = [F & SC]; (hb | hb; eco; hb); [F & SC] */
    const logic_rexpr *ecohb = name(b, &sc, "eco;hb", logic_seq(b, eco, to(b, hb, FSC)), cf, false);
    const logic_rexpr *pscf = logic_union(b, to(b, from(b, FSC, hb), FSC),
                                          logic_seq(b, from(b, FSC, hb), ecohb));
    const logic_rexpr *psc = name(b, &sc, "psc", logic_union(b, pscb, pscf), cf, false);

    const logic_formula *parts[6] = {
        logic_check_named(b, "hb", logic_irrefl(b, hb)),
        logic_check_named(b, "coherence", logic_irrefl(b, logic_seq(b, hb, eco))),
        logic_check_named(b, "atomic1", logic_irrefl(b, logic_seq(b, rmw, eco))),
        logic_check_named(b, "atomic2", logic_empty(b, logic_inter(b, rmw, logic_seq(b, fr, co)))),
        logic_check_named(b, "sc", logic_acyclic(b, "psc+", psc, cf)),
        logic_check_named(b, "no-thin-air", logic_acyclic(b, "sb|rf", logic_union(b, sb, rf), cf)),
    };
    const logic_formula *body = logic_and(b, parts, 6);
    for (uint32_t i = sc.n; i-- > 0;)
        body = logic_so_exists(b, sc.var[i], logic_and2(b, sc.constraint[i], body));

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
