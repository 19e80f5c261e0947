/* solver: the thin wrapper over CaDiCaL (Debian libcadical-dev), the only
 * code that includes ccadical.h.
 *
 * Literals are nonzero ints in DIMACS style: variable v > 0, its negation
 * -v. The wrapper counts variables and clauses so the report can print the
 * problem size, and supports a deadline: a solve past it returns
 * SAT_UNKNOWN.
 *
 * A recorder (sat_solver_new_recorder) has no CaDiCaL behind it: it counts
 * variables and keeps every clause, for a caller that hands the problem on
 * (sat/qbf for a QBF, a file writer); solving it answers SAT_UNKNOWN. */
#ifndef RAVEL_SAT_SOLVER_H
#define RAVEL_SAT_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sat_result { SAT_UNKNOWN = 0, SAT_SAT = 10, SAT_UNSAT = 20 } sat_result;

typedef struct sat_solver sat_solver;

sat_solver *sat_solver_new(void);
sat_solver *sat_solver_new_recorder(void);
/* A recorder's clauses: the literals of each followed by 0. */
const int *sat_recorded(const sat_solver *s, size_t *nlits);
void sat_solver_free(sat_solver *s);
/* A fresh variable (1, 2, ...). */
int sat_new_var(sat_solver *s);
int sat_num_vars(const sat_solver *s);
uint64_t sat_num_clauses(const sat_solver *s);
uint64_t sat_num_literals(const sat_solver *s);
uint64_t sat_num_solves(const sat_solver *s);
void sat_add_clause(sat_solver *s, const int *lits, size_t n);
void sat_add_unit(sat_solver *s, int lit);
void sat_add_binary(sat_solver *s, int a, int b);
void sat_add_ternary(sat_solver *s, int a, int b, int c);
void sat_assume(sat_solver *s, int lit);
/* Solves under the assumptions given since the last solve. */
sat_result sat_solve(sat_solver *s);
/* After SAT: the value of lit (true or false). */
bool sat_value(sat_solver *s, int lit);
/* After UNSAT under assumptions: whether assumption lit was used. */
bool sat_failed(sat_solver *s, int lit);
/* Stop solving after this absolute time (seconds on the monotonic clock,
 * base_now()); 0 means no deadline. */
void sat_set_deadline(sat_solver *s, double deadline);

#endif
