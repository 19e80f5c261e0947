/* qbf_random: random small QBFs and a brute-force evaluator, shared by the
 * QBF unit test, the DepQBF cross-check, the fuzz harness and the bench.
 * Header-only (static functions), for test programs only. */
#ifndef RAVEL_TESTS_QBF_RANDOM_H
#define RAVEL_TESTS_QBF_RANDOM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "sat/qbf.h"

/* splitmix64 */
static inline uint64_t qbf_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline int qbf_rand_int(uint64_t *s, int lo, int hi) /* inclusive */
{
    return lo + (int)(qbf_rand(s) % (uint64_t)(hi - lo + 1));
}

typedef struct qbf_random_params {
    int min_vars, max_vars;     /* variables 1..n, n in [min, max] */
    int min_blocks, max_blocks; /* quantifier blocks, alternating */
    int min_len, max_len;       /* clause length (min_len 0 means 1) */
    double min_ratio, max_ratio; /* clauses per variable */
    bool free_vars;             /* leave some variables unquantified */
} qbf_random_params;

/* A random QBF: blocks alternate from a random first kind; each variable
 * goes to a random block (or stays free, about one in ten, if allowed). */
static inline sat_qbf *qbf_random(uint64_t *s, const qbf_random_params *p)
{
    sat_qbf *q = sat_qbf_new();
    int n = qbf_rand_int(s, p->min_vars, p->max_vars);
    int nb = qbf_rand_int(s, p->min_blocks, p->max_blocks);
    sat_qbf_quant first = qbf_rand(s) & 1 ? SAT_QBF_FORALL : SAT_QBF_EXISTS;
    int *where = malloc(sizeof(int) * (size_t)(n + 1));
    for (int v = 1; v <= n; v++)
        where[v] = p->free_vars && qbf_rand_int(s, 0, 9) == 0 ? -1 : qbf_rand_int(s, 0, nb - 1);
    for (int b = 0; b < nb; b++) {
        sat_qbf_add_block(q, (sat_qbf_quant)((first + b) & 1), NULL, 0);
        for (int v = 1; v <= n; v++)
            if (where[v] == b)
                sat_qbf_add_var(q, v);
    }
    free(where);
    double ratio = p->min_ratio + (p->max_ratio - p->min_ratio) *
                                      (double)(qbf_rand(s) % 1000) / 1000.0;
    int m = (int)(ratio * n + 0.5);
    if (m < 1)
        m = 1;
    int lits[64];
    for (int c = 0; c < m; c++) {
        int len = qbf_rand_int(s, p->min_len > 0 ? p->min_len : 1, p->max_len < 64 ? p->max_len : 64);
        for (int k = 0; k < len; k++) {
            int v = qbf_rand_int(s, 1, n);
            lits[k] = qbf_rand(s) & 1 ? v : -v;
        }
        sat_qbf_add_clause(q, lits, (size_t)len);
    }
    return q;
}

typedef struct qbf_brute_state {
    const sat_qbf *q;
    int *order;        /* variables, outermost first */
    bool *forall;      /* per position */
    int n;
    signed char *val;  /* var -> 0/1, -1 unassigned */
} qbf_brute_state;

static inline bool qbf_brute_matrix(const qbf_brute_state *b)
{
    for (size_t c = 0; c < sat_qbf_num_clauses(b->q); c++) {
        size_t n;
        const int *l = sat_qbf_clause(b->q, c, &n);
        bool sat = false;
        for (size_t k = 0; k < n && !sat; k++)
            sat = b->val[abs(l[k])] == (l[k] > 0);
        if (!sat)
            return false;
    }
    return true;
}

static inline bool qbf_brute_rec(qbf_brute_state *b, int i)
{
    if (i == b->n)
        return qbf_brute_matrix(b);
    int v = b->order[i];
    if (b->val[v] >= 0) /* fixed by the caller */
        return qbf_brute_rec(b, i + 1);
    bool res = b->forall[i];
    for (int x = 0; x < 2; x++) {
        b->val[v] = (signed char)x;
        bool r = qbf_brute_rec(b, i + 1);
        if (r != b->forall[i]) {
            res = r;
            break;
        }
    }
    b->val[v] = -1;
    return res;
}

/* The truth of q by expanding every variable (free ones outermost,
 * existential). fixed, if not NULL, gives values (0/1, or -1 for none) of
 * variables that are not expanded. */
static inline bool qbf_brute(const sat_qbf *q, const signed char *fixed)
{
    int maxv = sat_qbf_max_var(q);
    qbf_brute_state b = { q, malloc(sizeof(int) * (size_t)(maxv + 1)),
                          malloc(sizeof(bool) * (size_t)(maxv + 1)), 0,
                          malloc((size_t)maxv + 1) };
    for (int v = 1; v <= maxv; v++) {
        b.val[v] = fixed ? fixed[v] : -1;
        if (sat_qbf_var_block(q, v) < 0) {
            b.forall[b.n] = false;
            b.order[b.n++] = v;
        }
    }
    for (size_t k = 0; k < sat_qbf_num_blocks(q); k++) {
        const int *vars;
        size_t n;
        sat_qbf_quant kind = sat_qbf_block(q, k, &vars, &n);
        for (size_t i = 0; i < n; i++) {
            b.forall[b.n] = kind == SAT_QBF_FORALL;
            b.order[b.n++] = vars[i];
        }
    }
    bool r = qbf_brute_rec(&b, 0);
    free(b.order);
    free(b.forall);
    free(b.val);
    return r;
}

/* The outermost existential variables: free ones and those of the first
 * nonempty block if it is existential. out[v] = true for them. */
static inline void qbf_outer_vars(const sat_qbf *q, bool *out)
{
    int maxv = sat_qbf_max_var(q);
    for (int v = 1; v <= maxv; v++)
        out[v] = sat_qbf_var_block(q, v) < 0;
    for (size_t k = 0; k < sat_qbf_num_blocks(q); k++) {
        const int *vars;
        size_t n;
        sat_qbf_quant kind = sat_qbf_block(q, k, &vars, &n);
        if (n == 0)
            continue;
        if (kind == SAT_QBF_EXISTS)
            for (size_t i = 0; i < n; i++)
                out[vars[i]] = true;
        break;
    }
}

#endif
