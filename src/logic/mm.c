#include "logic/mm.h"

#include <string.h>

static const logic_mm models[] = {
    { "sc", "sequential consistency: acyclic(po | rf | co | fr), atomic rmw", false, logic_mm_sc },
    { "sc-so", "sc with acyclicity as 'every nonempty set of events has a minimal one' "
               "(a universal SO quantifier, decided by QBF): sc's answers", true, logic_mm_sc_so },
    { "tso", "x86-TSO: uniproc, atomic rmw, acyclic(ppo | mfence | implied | rfe | co | fr); "
             "f[mb] is MFENCE, rmw is a locked instruction", false, logic_mm_tso },
};

const logic_mm *logic_mm_all(size_t *count)
{
    *count = sizeof models / sizeof models[0];
    return models;
}

const logic_mm *logic_mm_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    if (strcmp(name, "x86tso") == 0 || strcmp(name, "x86-tso") == 0)
        return logic_mm_find("tso");
    return NULL;
}
