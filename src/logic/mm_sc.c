/* mm_sc: sequential consistency (Lamport), as herd's sc.cat states it:
 * there is one order of all events that contains po, rf, co and fr; and a
 * read-modify-write is atomic: no write of another thread comes between
 * its read and its write in coherence order (herd checks this of every
 * model). sc-so states the same with a universal second-order
 * quantifier, which exercises the QBF back end. */
#include "logic/combinators.h"
#include "logic/check.h"
#include "logic/mm.h"
#include "logic/vocab.h"

const logic_formula *logic_mm_sc(logic_builder *b, const logic_exec *e)
{
    const logic_rexpr *rmw = logic_named(b, LOGIC_V_RMW, 2);
    return logic_and2(b, logic_check_named(b, "sc", logic_acyclic(b, "sc", logic_union(b, e->po, e->com),
                                                                 e->conflict)),
                      logic_check_named(b, "atomic", logic_empty(b, logic_inter(b, rmw, logic_seq(b, e->fre, e->coe)))));
}

/* sc-so: the same model with acyclicity in universal second-order form
 * (logic_acyclic_so): the answers of sc, decided by the QBF back end. */
const logic_formula *logic_mm_sc_so(logic_builder *b, const logic_exec *e)
{
    const logic_rexpr *rmw = logic_named(b, LOGIC_V_RMW, 2);
    return logic_and2(b, logic_check_named(b, "sc", logic_acyclic_so(b, "S", logic_union(b, e->po, e->com))),
                      logic_check_named(b, "atomic", logic_empty(b, logic_inter(b, rmw, logic_seq(b, e->fre, e->coe)))));
}
