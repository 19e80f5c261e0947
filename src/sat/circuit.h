/* circuit: a Tseitin circuit builder over one sat_solver.
 *
 * Builds AND/OR gates of literals with constant folding and structural
 * hashing, and emits the defining clauses of every new gate into the solver
 * at once (both directions, so a gate literal always equals its function:
 * callers may assume, block or read any gate).
 *
 * Constants are literals too: SAT_TRUE is variable 1, which the circuit
 * fixes to true on creation, and SAT_FALSE is its negation. So -SAT_TRUE ==
 * SAT_FALSE and constants flow through negation like any literal.
 *
 * A deferred circuit (defer set before the first gate) emits no gate
 * clauses at all; sat_circuit_emit_needed later gives the definitions that
 * a set of clauses needs, one direction per polarity of use (Plaisted and
 * Greenbaum). That is for QBF (sat/qbf), where a gate is an innermost
 * existential variable: with one-directional definitions a gate need not
 * follow inputs that do not matter to the clauses, which keeps the QBF
 * solver's certificates small. The invariant below that a gate literal
 * equals its function holds only for circuits that are not deferred.
 *
 * Invariants: no gate has a constant input, two equal inputs, or two
 * opposite inputs; two gates never have the same sorted input list. */
#ifndef RAVEL_SAT_CIRCUIT_H
#define RAVEL_SAT_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "base/hashmap.h"
#include "sat/solver.h"

#define SAT_TRUE 1
#define SAT_FALSE (-1)

typedef struct sat_circuit {
    sat_solver *solver;       /* borrowed */
    base_hashmap gates;       /* hash of sorted inputs -> first gate index */
    int *gate_lit;            /* gate index -> its output literal */
    uint32_t *gate_in_off;    /* gate index -> offset into inputs */
    uint32_t *gate_in_len;
    uint32_t *gate_next;      /* collision chain */
    size_t ngates, cap;
    int *inputs;              /* all gates' sorted inputs */
    size_t ninputs, inputs_cap;
    int *scratch;             /* for normalising inputs (one spare slot) */
    size_t scratch_cap;
    int *neg;                 /* sat_or's negated inputs */
    size_t neg_cap;
    uint64_t hits;            /* structural-hashing hits */
    bool defer;               /* emit no gate clauses (see above) */
} sat_circuit;

/* Creates the circuit and the constant variable (which must be variable 1:
 * call this on a fresh solver). */
void sat_circuit_init(sat_circuit *c, sat_solver *s);
void sat_circuit_free(sat_circuit *c);
int sat_circuit_var(sat_circuit *c); /* a fresh unconstrained variable */
int sat_and(sat_circuit *c, const int *lits, size_t n);
int sat_or(sat_circuit *c, const int *lits, size_t n);
int sat_and2(sat_circuit *c, int a, int b);
int sat_or2(sat_circuit *c, int a, int b);
int sat_implies(sat_circuit *c, int a, int b);
int sat_iff(sat_circuit *c, int a, int b);
static inline int sat_not(int lit) { return -lit; }
static inline int sat_const(int b) { return b ? SAT_TRUE : SAT_FALSE; }
/* Deferred circuits: calls emit once per definition clause that the
 * clauses in lits (n literals, each clause ended by 0) need, for gates
 * used positively (gate -> function) and negatively (function -> gate). */
void sat_circuit_emit_needed(const sat_circuit *c, const int *lits, size_t n,
                             void (*emit)(void *ctx, const int *clause, size_t len), void *ctx);
/* Asserts lit at the top level (adds a unit clause unless it is TRUE). */
void sat_assert(sat_circuit *c, int lit);

#endif
