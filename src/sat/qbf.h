/* qbf: a solver for prenex QBF with a CNF matrix, by clausal abstraction
 * (CAQE: Rabe and Tentrup, FMCAD 2015), on CaDiCaL through sat/solver.h.
 *
 * A query is a prefix of quantifier blocks, outermost first, and a CNF
 * matrix of DIMACS literals. A variable of the matrix that no block
 * quantifies is free and counts as existential in an outermost block (the
 * QDIMACS convention).
 *
 *     sat_qbf *q = sat_qbf_new();
 *     int x = 1, y = 2;
 *     sat_qbf_add_block(q, SAT_QBF_EXISTS, &x, 1);
 *     sat_qbf_add_block(q, SAT_QBF_FORALL, &y, 1);
 *     sat_qbf_add_clause(q, (int[]){ x, y }, 2);
 *     sat_result r = sat_qbf_solve(q);       // SAT: x must be true
 *     bool vx = sat_qbf_value(q, x);
 *
 * Solving makes one incremental SAT solver per quantifier level (adjacent
 * blocks of one kind merge into a level) and plays the levels against each
 * other; see qbf.c for the algorithm and its invariants. After a solve the
 * query may grow: clauses over outermost existential variables only are
 * added to the running solvers and keep what they learnt; any other change
 * rebuilds them at the next solve.
 *
 * sat_qbf_solve returns SAT when the QBF is true, UNSAT when false, and
 * UNKNOWN when the deadline (sat_qbf_set_deadline) or the iteration budget
 * (sat_qbf_set_budget) runs out. */
#ifndef RAVEL_SAT_QBF_H
#define RAVEL_SAT_QBF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sat/solver.h"

typedef enum sat_qbf_quant { SAT_QBF_EXISTS = 0, SAT_QBF_FORALL = 1 } sat_qbf_quant;

typedef struct sat_qbf sat_qbf;

typedef struct sat_qbf_stats {
    uint64_t iterations;  /* level assignments tried (SAT calls that answered SAT) */
    uint64_t refinements; /* clauses learnt from the inner levels */
    uint64_t sat_calls;
    uint32_t levels;      /* quantifier levels after merging */
} sat_qbf_stats;

sat_qbf *sat_qbf_new(void);
void sat_qbf_free(sat_qbf *q);

/* Appends a block, innermost so far, with the given (positive) variables.
 * Returns false, and adds nothing, if a variable is not positive or is
 * quantified already (by an earlier block or twice in this one). An empty
 * block is allowed and ignored by the solver. */
bool sat_qbf_add_block(sat_qbf *q, sat_qbf_quant k, const int *vars, size_t n);
/* Appends one variable to the innermost block (false as above, or if there
 * is no block yet). */
bool sat_qbf_add_var(sat_qbf *q, int var);
/* Adds a matrix clause (n may be 0: the empty clause). Literals must be
 * nonzero; duplicate literals are allowed, and a clause with x and -x is
 * kept (it is simply always true). */
void sat_qbf_add_clause(sat_qbf *q, const int *lits, size_t n);

/* Assumes lit for the next solve only. lit's variable must be an outermost
 * existential (or free) variable; an assumption on any other variable makes
 * that solve return UNKNOWN. */
void sat_qbf_assume(sat_qbf *q, int lit);

sat_result sat_qbf_solve(sat_qbf *q);
/* After SAT: the value of an outermost existential (or free) variable's
 * literal in the winning assignment. Other literals read false. */
bool sat_qbf_value(const sat_qbf *q, int lit);

/* Absolute deadline in seconds on base_now()'s clock; 0: none. */
void sat_qbf_set_deadline(sat_qbf *q, double deadline);
/* At most this many iterations per solve (0: no limit). */
void sat_qbf_set_budget(sat_qbf *q, uint64_t max_iterations);
sat_qbf_stats sat_qbf_get_stats(const sat_qbf *q);

/* The query, for the writers. Blocks are as added (empty ones included). */
int sat_qbf_max_var(const sat_qbf *q);
size_t sat_qbf_num_blocks(const sat_qbf *q);
sat_qbf_quant sat_qbf_block(const sat_qbf *q, size_t i, const int **vars, size_t *n);
/* The block that quantifies var, or -1 when it is free. */
long sat_qbf_var_block(const sat_qbf *q, int var);
size_t sat_qbf_num_clauses(const sat_qbf *q);
const int *sat_qbf_clause(const sat_qbf *q, size_t i, size_t *n);

#endif
