/* mm_tso: x86-TSO over LISA (Owens, Sarkar, Sewell; herd's x86tso.cat).
 *
 *   uniproc:  acyclic(po-loc | rf | co | fr)
 *   atomic:   empty(rmw & (fre ; coe))
 *   tso:      acyclic(ppo | mfence | implied | rfe | co | fr)
 * where ppo is po between memory events except write -> read, mfence is
 * po ; [f[mb]] ; po between memory events, and implied orders every event
 * before and after a locked (rmw) instruction. */
#include "logic/combinators.h"
#include "logic/check.h"
#include "logic/mm.h"
#include "logic/vocab.h"

const logic_formula *logic_mm_tso(logic_builder *b, const logic_exec *e)
{
    const logic_rexpr *M = logic_named(b, LOGIC_V_MEM, 1);
    const logic_rexpr *R = logic_named(b, LOGIC_V_READ, 1);
    const logic_rexpr *W = logic_named(b, LOGIC_V_WRITE, 1);
    const logic_rexpr *L = logic_named(b, LOGIC_V_RMWEV, 1);
    const logic_rexpr *mb = logic_named(b, LOGIC_V_ANNOT_PREFIX "mb", 1);
    const logic_rexpr *rmw = logic_named(b, LOGIC_V_RMW, 2);

    const logic_rexpr *pomm = logic_restrict(b, M, e->po, M);
    const logic_rexpr *ppo = logic_diff(b, pomm, logic_prod(b, W, R));
    const logic_rexpr *fence = logic_id(b, mb);
    const logic_rexpr *mfence = logic_restrict(b, M, logic_seq(b, e->po, logic_seq(b, fence, e->po)), M);
    const logic_rexpr *implied = logic_inter(b, pomm,
        logic_union(b, logic_prod(b, L, logic_r_all(b, 1)), logic_prod(b, logic_r_all(b, 1), L)));
    const logic_rexpr *ghb = logic_union(b, ppo, logic_union(b, mfence, logic_union(b, implied,
        logic_union(b, e->rfe, logic_union(b, e->cor, e->fr)))));

    const logic_formula *parts[3] = {
        logic_check_named(b, "uniproc", logic_acyclic(b, "uniproc", logic_union(b, e->poloc, e->com), e->conflict)),
        logic_check_named(b, "atomic", logic_empty(b, logic_inter(b, rmw, logic_seq(b, e->fre, e->coe)))),
        logic_check_named(b, "tso", logic_acyclic(b, "tso", ghb, e->conflict)),
    };
    return logic_and(b, parts, 3);
}
