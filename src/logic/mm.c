#include "logic/mm.h"

#include <string.h>

static const logic_mm models[] = {
    { .name = "sc",
      .summary = "sequential consistency: acyclic(po | rf | co | fr), atomic rmw",
      .consistent = logic_mm_sc },
    { .name = "sc-so",
      .summary = "sc with acyclicity as 'every nonempty set of events has a minimal one' "
                 "(a universal SO quantifier, decided by QBF): sc's answers",
      .needs_qbf = true, .consistent = logic_mm_sc_so },
    { .name = "tso",
      .summary = "x86-TSO: uniproc, atomic rmw, acyclic(ppo | mfence | implied | rfe | co | fr); "
                 "f[mb] is MFENCE, rmw is a locked instruction",
      .consistent = logic_mm_tso },
    { .name = "ra",
      .summary = "release/acquire, every access: hb = (po | rf)+ irreflexive, co;hb and fr;hb "
                 "irreflexive, atomic rmw",
      .consistent = logic_mm_ra },
    { .name = "c11",
      .summary = "RC11 (Lahav et al. 2017) over annotations na/rlx/acq/rel/acq_rel/sc: coherence "
                 "(hb;eco? irreflexive), atomicity, acyclic psc, acyclic(sb | rf); "
                 "a race on a non-atomic access is undefined",
      .consistent = logic_mm_c11 },
    { .name = "jr",
      .summary = "Jeffrey-Riely (LICS 2016): the execution is a well-justified configuration "
                 "of the event structure (always-eventually justification game, PrideMM's "
                 "second-order form); no coherence, so registers only",
      .needs_qbf = true, .config_only = true, .consistent = logic_mm_jr },
};

const logic_mm *logic_mm_all(size_t *count)
{
    *count = sizeof models / sizeof models[0];
    return models;
}

logic_mm_undef_fn logic_mm_undef(const logic_mm *m)
{
    return m->consistent == logic_mm_c11 ? logic_mm_c11_undef : NULL;
}

const logic_mm *logic_mm_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    if (strcmp(name, "x86tso") == 0 || strcmp(name, "x86-tso") == 0)
        return logic_mm_find("tso");
    if (strcmp(name, "rc11") == 0)
        return logic_mm_find("c11");
    return NULL;
}
