#include "sat/circuit.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void sat_circuit_init(sat_circuit *c, sat_solver *s)
{
    memset(c, 0, sizeof *c);
    c->solver = s;
    base_hashmap_init(&c->gates);
    int t = sat_new_var(s);
    (void)t; /* == SAT_TRUE on a fresh solver */
    sat_add_unit(s, SAT_TRUE);
}

void sat_circuit_free(sat_circuit *c)
{
    base_hashmap_free(&c->gates);
    free(c->gate_lit);
    free(c->gate_in_off);
    free(c->gate_in_len);
    free(c->gate_next);
    free(c->inputs);
    free(c->scratch);
    free(c->neg);
    memset(c, 0, sizeof *c);
}

int sat_circuit_var(sat_circuit *c)
{
    return sat_new_var(c->solver);
}

static int cmp_lit(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    int va = abs(a), vb = abs(b);
    if (va != vb)
        return va < vb ? -1 : 1;
    return a < b ? -1 : a > b;
}

static uint64_t hash_lits(const int *l, size_t n)
{
    uint64_t h = 0x51ed270b27b1d3a5ULL ^ n;
    for (size_t i = 0; i < n; i++)
        h = base_hash64(h ^ (uint64_t)(uint32_t)l[i]);
    return h & ~(uint64_t)0 >> 1;
}

int sat_and(sat_circuit *c, const int *lits, size_t n)
{
    /* Normalise: drop TRUE, stop at FALSE, sort, dedupe, spot x & -x. */
    if (n + 1 > c->scratch_cap) {
        c->scratch_cap = n * 2 + 1;
        c->scratch = base_xrealloc(c->scratch, base_mul_size(c->scratch_cap, sizeof(int)));
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (lits[i] == SAT_FALSE)
            return SAT_FALSE;
        if (lits[i] != SAT_TRUE)
            c->scratch[m++] = lits[i];
    }
    if (m == 0)
        return SAT_TRUE;
    qsort(c->scratch, m, sizeof(int), cmp_lit);
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        if (k && c->scratch[k - 1] == c->scratch[i])
            continue;
        if (k && c->scratch[k - 1] == -c->scratch[i])
            return SAT_FALSE;
        c->scratch[k++] = c->scratch[i];
    }
    if (k == 1)
        return c->scratch[0];

    uint64_t h = hash_lits(c->scratch, k);
    uint64_t first;
    bool have = base_hashmap_get(&c->gates, h, &first);
    if (have) {
        for (uint32_t g = (uint32_t)first; g != UINT32_MAX; g = c->gate_next[g]) {
            if (c->gate_in_len[g] == k &&
                memcmp(c->inputs + c->gate_in_off[g], c->scratch, k * sizeof(int)) == 0) {
                c->hits++;
                return c->gate_lit[g];
            }
        }
    }
    if (c->ngates == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->gate_lit = base_xrealloc(c->gate_lit, base_mul_size(c->cap, sizeof(int)));
        c->gate_in_off = base_xrealloc(c->gate_in_off, base_mul_size(c->cap, sizeof(uint32_t)));
        c->gate_in_len = base_xrealloc(c->gate_in_len, base_mul_size(c->cap, sizeof(uint32_t)));
        c->gate_next = base_xrealloc(c->gate_next, base_mul_size(c->cap, sizeof(uint32_t)));
    }
    if (c->ninputs + k > c->inputs_cap) {
        while (c->ninputs + k > c->inputs_cap)
            c->inputs_cap = c->inputs_cap ? c->inputs_cap * 2 : 1024;
        c->inputs = base_xrealloc(c->inputs, base_mul_size(c->inputs_cap, sizeof(int)));
    }
    uint32_t g = (uint32_t)c->ngates++;
    int out = sat_new_var(c->solver);
    c->gate_lit[g] = out;
    c->gate_in_off[g] = (uint32_t)c->ninputs;
    c->gate_in_len[g] = (uint32_t)k;
    c->gate_next[g] = have ? (uint32_t)first : UINT32_MAX;
    memcpy(c->inputs + c->ninputs, c->scratch, k * sizeof(int));
    c->ninputs += k;
    base_hashmap_put(&c->gates, h, g);

    if (c->defer)
        return out;
    /* out -> each input; all inputs -> out (the scratch holds the inputs,
     * which are copied already, and has room for one more literal). */
    for (size_t i = 0; i < k; i++) {
        sat_add_binary(c->solver, -out, c->scratch[i]);
        c->scratch[i] = -c->scratch[i];
    }
    c->scratch[k] = out;
    sat_add_clause(c->solver, c->scratch, k + 1);
    return out;
}

enum { USE_POS = 1, USE_NEG = 2 };

static void mark_use(uint8_t *use, const int32_t *gate_of, int nv, int lit)
{
    int v = abs(lit);
    if (v <= nv && gate_of[v] >= 0)
        use[gate_of[v]] |= lit > 0 ? USE_POS : USE_NEG;
}

void sat_circuit_emit_needed(const sat_circuit *c, const int *lits, size_t n,
                             void (*emit)(void *ctx, const int *clause, size_t len), void *ctx)
{
    int nv = sat_num_vars(c->solver);
    int32_t *gate_of = base_xmalloc(base_mul_size((size_t)nv + 1, sizeof *gate_of));
    for (int v = 0; v <= nv; v++)
        gate_of[v] = -1;
    for (size_t g = 0; g < c->ngates; g++)
        gate_of[c->gate_lit[g]] = (int32_t)g;
    uint8_t *use = base_xcalloc(c->ngates ? c->ngates : 1, 1);
    for (size_t i = 0; i < n; i++)
        if (lits[i])
            mark_use(use, gate_of, nv, lits[i]);
    size_t maxlen = 1;
    for (size_t g = 0; g < c->ngates; g++)
        if (c->gate_in_len[g] + 1 > maxlen)
            maxlen = c->gate_in_len[g] + 1;
    int *cl = base_xmalloc(base_mul_size(maxlen, sizeof *cl));
    /* A gate's inputs are older than the gate: newest first reaches every
     * use of a gate before the gate itself. */
    for (size_t g = c->ngates; g-- > 0;) {
        const int *in = c->inputs + c->gate_in_off[g];
        uint32_t k = c->gate_in_len[g];
        int out = c->gate_lit[g];
        if (use[g] & USE_POS) {
            for (uint32_t i = 0; i < k; i++) {
                cl[0] = -out;
                cl[1] = in[i];
                emit(ctx, cl, 2);
                mark_use(use, gate_of, nv, in[i]);
            }
        }
        if (use[g] & USE_NEG) {
            for (uint32_t i = 0; i < k; i++) {
                cl[i] = -in[i];
                mark_use(use, gate_of, nv, -in[i]);
            }
            cl[k] = out;
            emit(ctx, cl, k + 1);
        }
    }
    free(cl);
    free(use);
    free(gate_of);
}

int sat_or(sat_circuit *c, const int *lits, size_t n)
{
    if (n > c->neg_cap) {
        c->neg_cap = n * 2;
        c->neg = base_xrealloc(c->neg, base_mul_size(c->neg_cap, sizeof(int)));
    }
    for (size_t i = 0; i < n; i++)
        c->neg[i] = -lits[i];
    return -sat_and(c, c->neg, n);
}

int sat_and2(sat_circuit *c, int a, int b)
{
    int l[2] = { a, b };
    return sat_and(c, l, 2);
}

int sat_or2(sat_circuit *c, int a, int b)
{
    return -sat_and2(c, -a, -b);
}

int sat_implies(sat_circuit *c, int a, int b)
{
    return sat_or2(c, -a, b);
}

int sat_iff(sat_circuit *c, int a, int b)
{
    return sat_and2(c, sat_implies(c, a, b), sat_implies(c, b, a));
}

void sat_assert(sat_circuit *c, int lit)
{
    if (lit != SAT_TRUE)
        sat_add_unit(c->solver, lit);
}
