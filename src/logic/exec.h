/* exec: candidate executions of an event structure, shared by every model.
 *
 * An execution is a configuration X (a maximal conflict-free, po-downward
 * closed set of events: one path through each thread's tree of
 * alternatives) with a reads-from relation rf and a coherence order co over
 * it. logic_exec_build declares the three SO variables and the formula
 * saying they are well formed; models add their consistency axioms over the
 * derived relations here. The caller wraps everything in the SO
 * quantifiers (logic_exec_close). */
#ifndef RAVEL_LOGIC_EXEC_H
#define RAVEL_LOGIC_EXEC_H

#include "logic/formula.h"

typedef struct logic_exec {
    logic_sovar *X, *rf, *co;
    const logic_rexpr *x;     /* the configuration, a set */
    const logic_rexpr *rfr, *cor;
    const logic_rexpr *fr;    /* rf^-1 ; co */
    const logic_rexpr *po;    /* po restricted to X */
    const logic_rexpr *poloc; /* po & loc, restricted to X */
    const logic_rexpr *rfe, *coe, *fre;
    const logic_rexpr *com;   /* rf | co | fr */
    const logic_rexpr *conflict;
    const logic_formula *config;     /* X is a maximal configuration */
    const logic_formula *wellformed; /* config, and rf and co are well formed over X */
} logic_exec;

void logic_exec_build(logic_builder *b, logic_exec *e);
/* After logic_exec_build, for a model that judges configurations alone
 * (logic_mm.config_only, jr): rf and co are bounded by the empty relation
 * (their tables are constant false) and wellformed is only `config`. */
void logic_exec_config_only(logic_builder *b, logic_exec *e);
/* exists X rf co. wellformed /\ body */
const logic_formula *logic_exec_close(logic_builder *b, const logic_exec *e,
                                      const logic_formula *body);

#endif
