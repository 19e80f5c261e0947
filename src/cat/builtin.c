/* ravel's own library files, used when an include (or the implicit
 * stdlib.cat) is not found on the search path. Written for ravel: they
 * define the names herd's library files define, over ravel's
 * predefined relations (cat/lower.c). */
#include <string.h>

#include "cat/model.h"

static const char stdlib_cat[] =
    "\"ravel stdlib\"\n"
    "(* The definitions read before every model. *)\n"
    "let emptyset = domain 0\n"
    "let po-loc = po & loc\n"
    "let rfe = rf & ext\n"
    "let rfi = rf & int\n"
    "(* initial writes come first and final writes last in coherence *)\n"
    "let co0 = loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW))\n"
    "let toid(s) = [s]\n"
    "(* po to a fence of set B, then po *)\n"
    "let fencerel(B) = (po & (_ * B)) ; po\n"
    "let ctrlcfence(ctrl, CFENCE) = (ctrl & (_ * CFENCE)) ; po\n"
    "let imply(A, B) = ~A | B\n"
    "let nodetour(R1, R2, R3) = R1 \\ (R2 ; R3)\n"
    "let singlestep(R) = nodetour(R, R, R)\n"
    "let udr r = domain r | range r\n"
    "let PoD = B\n"
    "let BR = B\n"
    "let partition = classes-loc\n"
    "let tag2instrs = tag2events\n";

/* herd's cos.cat generates every coherence order; ravel's co is already
 * an SO variable ranging over them (logic/exec.h), and coi, coe, fr, fri
 * and fre are predefined from it. */
static const char cos_cat[] =
    "\"ravel cos\"\n"
    "(* Coherence: co is chosen by the solver, one total order of the writes\n"
    "   of each location with the initial write first. *)\n"
    "let invrf = rf^-1\n"
    "let ca = fr | co\n";

/* Sequential consistency, as herd's library states it. */
static const char sc_cat[] =
    "SC\n"
    "(* Sequential consistency: one order of all events contains program order\n"
    "   and the communication relations; read-modify-writes are atomic. *)\n"
    "include \"cos.cat\"\n"
    "empty rmw & (fre ; coe) as atom\n"
    "acyclic po | rf | co | fr as sc\n";

const char *cat_builtin_file(const char *name)
{
    if (strcmp(name, "sc.cat") == 0)
        return sc_cat;
    if (strcmp(name, "stdlib.cat") == 0)
        return stdlib_cat;
    if (strcmp(name, "cos.cat") == 0)
        return cos_cat;
    return NULL;
}
