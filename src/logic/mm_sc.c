/* mm_sc: sequential consistency (Lamport), as herd's sc.cat states it:
 * there is one order of all events that contains po, rf, co and fr. */
#include "logic/combinators.h"
#include "logic/mm.h"
#include "logic/vocab.h"

const logic_formula *logic_mm_sc(logic_builder *b, const logic_exec *e)
{
    return logic_acyclic(b, "sc", logic_union(b, e->po, e->com), e->conflict);
}
