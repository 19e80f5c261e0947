#include "cat/variant.h"

#include <strings.h>

/* herd7's variants that change the events or executions it builds for a
 * test, or its own code: refused (ravel builds its events one way). */
static const char *const event_variants[] = {
    "success", "instr", "specialx0", "amox0", "x0", "normw", "acqrelasfence", "backcompat",
    "back", "fullscdepend", "scdepend", "splittedrmw", "switchdepscwrite",
    "switchdepscresult", "lrscdiffok", "mixed", "unaligned", "dontcheckmixed",
    "notweakpredicated", "notweakpred", "weakpredicated", "tagmem", "memtag", "mte",
    "toofar", "morello", "neon", "sve", "sme", "deps", "instances", "instance", "kvm",
    "vmsa", "noptebranch", "nobranch", "pte2", "pte-squared", "phantomonload", "optrfrmw",
    "constrainedunpredictable", "cu", "exp", "ifetch", "self", "dic", "idc", "cos-opt",
    "test", "asl", "asl_aarch64", "aslaarch64", "asl+aarch64", "aslv0", "asl0", "asl_0",
    "aslv1", "asl1", "asl_1", "asltype+warn", "asltype+silence", "asltype+check",
    "asl+experimental", "asl+exp", "s128", "strict", "warn", "telechat", "nv2", "lkmmv2",
    "precise", "imprecise", "asynchronous", "asymmetric", "fatal", "skip", "handled",
};

/* Read by the models only (aarch64.cat's `if "ETS2" || "ETS3"`, `if not
 * "ExS" || "EIS"`): what they select concerns translation and exception
 * events, which ravel's tests do not have, so the model reads them as
 * herd7 does. */
static const char *const cat_only_variants[] = { "ets", "ets2", "ets3", "exs", "eis", "eos" };

static bool in(const char *const *list, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcasecmp(list[i], name) == 0)
            return true;
    return false;
}

bool cat_variant_supported(const char *name, const char **why)
{
    if (in(cat_only_variants, sizeof cat_only_variants / sizeof cat_only_variants[0], name))
        return true;
    if (in(event_variants, sizeof event_variants / sizeof event_variants[0], name))
        *why = "under it herd7 builds other events or executions, or runs other code; ravel "
               "has only its default ones";
    else
        *why = "not one of herd7's variants that ravel knows";
    return false;
}

bool cat_variant_is_set(const cat_variants *v, const char *name)
{
    return v && in(v->names, v->n, name);
}
