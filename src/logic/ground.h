/* ground: second-order formula x finite structure -> circuit (PrideMM §5).
 *
 * First-order quantifiers are expanded over the universe; structure atoms
 * with known arguments become constants and fold away; each existential SO
 * variable becomes a table of SAT literals, one per tuple of its bound and
 * the constant false elsewhere. Grounding short-circuits: the consequent of
 * an implication whose antecedent is false is never visited, which is what
 * keeps `trans` near O(|bound| * n) instead of O(n^3).
 *
 * Two entry points: logic_ground_assert adds a formula as clauses (top-level
 * conjunctions, universal quantifiers and implications become separate
 * clauses, with no gates for them), and logic_ground_lit returns one literal
 * equivalent to a formula (for assumptions, e.g. a litmus condition).
 *
 * A universal SO quantifier (an SO_FORALL in positive position, or an
 * SO_EXISTS under negation) cannot be grounded to SAT: it sets
 * LOGIC_GROUND_NEEDS_QBF and the caller answers unknown (the QBF back end is
 * issue 7). A deadline past which grounding stops sets
 * LOGIC_GROUND_TIMEOUT; a clause budget past which it stops sets
 * LOGIC_GROUND_TOO_LARGE (memory grows with the clauses). */
#ifndef RAVEL_LOGIC_GROUND_H
#define RAVEL_LOGIC_GROUND_H

#include <stdint.h>

#include "logic/formula.h"
#include "sat/circuit.h"

typedef enum logic_ground_status {
    LOGIC_GROUND_OK,
    LOGIC_GROUND_NEEDS_QBF,
    LOGIC_GROUND_TIMEOUT,
    LOGIC_GROUND_TOO_LARGE,
    LOGIC_GROUND_UNBOUND, /* an SO variable used outside its quantifier (a model bug) */
} logic_ground_status;

typedef struct logic_grounder {
    logic_builder *b;
    const logic_structure *st;
    sat_circuit *circ;
    int32_t *env;            /* first-order variable -> element */
    uint32_t env_cap;
    int **tables;            /* SO variable id -> literal per tuple (NULL: not declared) */
    uint32_t tables_cap;
    int *stack;              /* literal stack for n-ary gates and clause contexts */
    size_t sp, stack_cap;
    logic_ground_status status;
    double deadline;         /* 0: none */
    uint64_t max_clauses;    /* 0: none */
    uint64_t instances;      /* ground instances visited */
    uint64_t so_vars;        /* SAT variables made for SO tuples */
} logic_grounder;

void logic_grounder_init(logic_grounder *g, logic_builder *b, sat_circuit *c);
void logic_grounder_free(logic_grounder *g);
void logic_ground_assert(logic_grounder *g, const logic_formula *f);
int logic_ground_lit(logic_grounder *g, const logic_formula *f);
/* The literal table of a declared SO variable (n or n*n entries), or NULL. */
const int *logic_ground_table(const logic_grounder *g, const logic_sovar *v);

#endif
