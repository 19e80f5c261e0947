/* tm_rel: difference constraints between the integer variables of a tm
 * state (a difference-bound matrix, Miné's zone domain).
 *
 * d is an n x n matrix of int64_t: d[i*n+j] = c states that, in every
 * concrete state the abstract one stands for, val(i) - val(j) <= c, the
 * values taken as mathematical integers. TM_REL_INF is "no constraint".
 * Bounds are kept within +-TM_REL_MAX (a larger upper bound becomes
 * TM_REL_INF, which only drops a constraint; the engine relates variables
 * of at most 32 bits, whose differences stay far inside). */
#ifndef RAVEL_TM_TM_REL_H
#define RAVEL_TM_TM_REL_H

#include <stdbool.h>
#include <stdint.h>

#define TM_REL_INF INT64_MAX
#define TM_REL_MAX ((int64_t)1 << 40)

/* No constraint (0 on the diagonal). */
void tm_rel_top(int64_t *d, uint32_t n);
/* a + b, saturated: TM_REL_INF when either is, or the sum exceeds
 * TM_REL_MAX. */
int64_t tm_rel_add(int64_t a, int64_t b);
/* d := d join s (entrywise max); widen: an entry that grows becomes
 * TM_REL_INF. Returns whether d changed. */
bool tm_rel_join(int64_t *d, const int64_t *s, uint32_t n, bool widen);
/* Forgets every constraint on x. */
void tm_rel_forget(int64_t *d, uint32_t n, uint32_t x);
/* Forgets the upper bounds of x against the others (x - j <= c): what
 * stays true when x may grow. */
void tm_rel_forget_upper(int64_t *d, uint32_t n, uint32_t x);
/* x := y + c (x == y: a shift). Exact on a closed matrix. */
void tm_rel_assign(int64_t *d, uint32_t n, uint32_t x, uint32_t y, int64_t c);
/* Adds x - y <= c and closes incrementally (d closed before); returns
 * false when that is infeasible. */
bool tm_rel_constrain(int64_t *d, uint32_t n, uint32_t x, uint32_t y, int64_t c);
/* Closes d (shortest paths); returns false on a negative cycle. */
bool tm_rel_close(int64_t *d, uint32_t n);

#endif
