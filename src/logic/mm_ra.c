/* mm_ra: release/acquire (RA), every LISA access treated as acquire (reads)
 * and release (writes), as the corpus's ra.cat and PrideMM's cat-ra state it:
 *
 *   hb = (po | rf)+
 *   irreflexive hb            (no po|rf cycle)
 *   irreflexive co ; hb       (write coherence)
 *   irreflexive fr ; hb       (read coherence)
 *   empty rmw & (fre ; coe)   (atomic read-modify-write)
 *
 * hb is the one SO variable of logic_plus: a transitive relation containing
 * po | rf. Every axiom uses hb negatively (irreflexivity), so an
 * over-approximation would only forbid more; the solver picks the least one
 * when an execution is consistent, hence the encoding is exact.
 * Annotations do not change this model. */
#include "logic/combinators.h"
#include "logic/check.h"
#include "logic/mm.h"
#include "logic/vocab.h"

const logic_formula *logic_mm_ra(logic_builder *b, const logic_exec *e)
{
    const logic_rexpr *rmw = logic_named(b, LOGIC_V_RMW, 2);
    const logic_formula *closed;
    const logic_sovar *hbv;
    const logic_rexpr *hb = logic_plus(b, "hb", logic_union(b, e->po, e->rfr), e->conflict,
                                       &closed, &hbv);
    const logic_formula *parts[5] = {
        closed,
        logic_check_named(b, "hb", logic_irrefl(b, hb)),
        logic_check_named(b, "co;hb", logic_irrefl(b, logic_seq(b, e->cor, hb))),
        logic_check_named(b, "fr;hb", logic_irrefl(b, logic_seq(b, e->fr, hb))),
        logic_check_named(b, "atomic", logic_empty(b, logic_inter(b, rmw, logic_seq(b, e->fre, e->coe)))),
    };
    return logic_so_exists(b, hbv, logic_and(b, parts, 5));
}
