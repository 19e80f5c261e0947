/* ground: second-order formula x finite structure -> circuit (PrideMM §5).
 *
 * First-order quantifiers are expanded over the universe; structure atoms
 * with known arguments become constants and fold away; each existential SO
 * variable becomes a table of SAT literals, one per tuple of its bound and
 * the constant false elsewhere, and the constant true on its must-bits;
 * a variable with a definition (logic_sovar.def) is its definition's
 * literals instead (in QBF mode: fresh variables and w <-> def). Grounding
 * short-circuits: the consequent of
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
 * LOGIC_GROUND_NEEDS_QBF. In QBF mode (qbf set before grounding, and the
 * circuit's solver a recorder, sat_solver_new_recorder, and the circuit
 * deferred, circ->defer) it can: every SO
 * quantifier gets a quantifier level — the level of the innermost
 * enclosing SO quantifier if it has the same kind by polarity, else the
 * next one; level 0 is existential and levels alternate — and the SAT
 * variables of its tuples are quantified there. Tseitin gates go into the
 * innermost existential level (a gate equals its function, so it may be
 * chosen last). This is the prenex form of the formula, sound because every
 * quantifier instance gets fresh variables. logic_ground_qbf then gives the
 * QBF. An SO quantifier under <-> (no polarity) still sets NEEDS_QBF. A
 * deadline past which grounding stops sets
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
    bool qbf;                /* QBF mode (see above) */
    uint32_t qlevel;         /* QBF mode: level of the innermost enclosing SO quantifier */
    uint32_t max_level;      /* QBF mode: deepest level used */
    uint32_t *var_level;     /* QBF mode: SAT variable -> level + 1 (0: not an SO tuple) */
    size_t var_level_cap;
    bool (*value)(void *ud, int lit); /* logic_ground_eval: a literal's value in a model */
    void *value_ud;
} logic_grounder;

void logic_grounder_init(logic_grounder *g, logic_builder *b, sat_circuit *c);
void logic_grounder_free(logic_grounder *g);
void logic_ground_assert(logic_grounder *g, const logic_formula *f);
int logic_ground_lit(logic_grounder *g, const logic_formula *f);
/* QBF mode: the QBF of everything grounded so far and the unit clauses
 * units[0..n): the prefix (SO tuple variables at their levels, all other
 * variables innermost existential), the recorder's clauses and the units,
 * and the gate definitions they need (the circuit is deferred in QBF mode:
 * set circ->defer with qbf). The caller frees it. */
struct sat_qbf *logic_ground_qbf(const logic_grounder *g, const int *units, size_t n);
/* QBF mode: the level of a SAT variable (gates: the innermost level). */
uint32_t logic_ground_var_level(const logic_grounder *g, int var);
/* Gives an SO variable that no quantifier of the formulas grounded
 * declares a table of the caller's literals (n or n*n entries, copied):
 * a relation whose tuples are the caller's own Booleans (po's event
 * guards and reads-from choices, src/po/po_mm.c). */
void logic_ground_set_table(logic_grounder *g, const logic_sovar *v, const int *lits);
/* The value of relation r (arity 2) in a model, every literal of an SO
 * variable's table read as value(ud, lit) says: n rows of n / 64 + 1
 * words, bit c of row a for (a, c). The caller frees it. No gates are
 * made; every SO variable r uses must be declared. */
uint64_t *logic_ground_eval(logic_grounder *g, const logic_rexpr *r,
                            bool (*value)(void *ud, int lit), void *ud);
/* The literal table of a declared SO variable (n or n*n entries), or NULL. */
const int *logic_ground_table(const logic_grounder *g, const logic_sovar *v);

#endif
